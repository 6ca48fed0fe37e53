import { expect, it } from 'bun:test';
import { describeApi } from '../../testing.ts';

describeApi('business and group pickers', (t) => {
  it('finds businesses by a case-insensitive name prefix, 25 a page, without repeats', async () => {
    const admin = await t.signIn({ support: true });
    for (let i = 0; i < 30; i++) {
      await t.db
        .insertInto('businesses')
        .values({
          id: Bun.randomUUIDv7(),
          name: i % 2 ? `Boots ${i}` : `boots ${i}`,
          post_town: 'Leeds',
          created: 1,
          updated: 1,
        })
        .execute();
    }
    await t.db
      .insertInto('businesses')
      .values({ id: 'x', name: 'Lloyds', archived_at: 5, created: 1, updated: 1 })
      .execute();
    const first = await t.call('businesses', 'listBusinessesInfo', { filter: 'BOO' }, { cookie: admin.cookie });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.data[0]?.address.postTown).toBe('Leeds');
    const second = await t.call(
      'businesses',
      'listBusinessesInfo',
      { filter: 'boo', nextToken: first.body.nextToken },
      { cookie: admin.cookie },
    );
    expect(second.body.data).toHaveLength(5);
    expect(second.body.nextToken).toBeNull();
    expect(new Set([...first.body.data, ...second.body.data].map((b) => b.id)).size).toBe(30);
    const lloyds = await t.call('businesses', 'listBusinessesInfo', { filter: 'll' }, { cookie: admin.cookie });
    expect(lloyds.body.data).toEqual([
      {
        id: 'x',
        name: 'Lloyds',
        address: { line1: null, line2: null, line3: null, postTown: null, postcode: null },
        archived: { at: 5, userId: null, userDisplayName: null },
      },
    ]);
  });

  it('finds groups by name prefix', async () => {
    const admin = await t.signIn({ support: true });
    await t.db.insertInto('groups').values({ id: 'g1', name: 'North', created: 1, updated: 1 }).execute();
    await t.db.insertInto('groups').values({ id: 'g2', name: 'South', created: 1, updated: 1 }).execute();
    const res = await t.call('groups', 'listGroupsInfo', { filter: 'nor' }, { cookie: admin.cookie });
    expect<unknown>(res.body).toEqual({ data: [{ id: 'g1', name: 'North', archived: null }], nextToken: null });
  });

  it('is for support staff only', async () => {
    const user = await t.signIn();
    expect((await t.call('groups', 'listGroupsInfo', {}, { cookie: user.cookie })).status).toBe(403);
  });
});
