import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { findGroup, listGroupInfosByName, listGroupsByName } from '../groups/repository.ts';
import { findBusiness, listBusinessesByName, listBusinessInfosByName } from './repository.ts';

/*
 * The lists of businesses and groups are written as JSON by PostgreSQL (listJsonByName), beside the
 * repositories' row mappers, which every other read uses. Row by row, on rows that try each branch
 * (no email, archived, a logo with and without a colour, an empty logo path, arrays with quotes and
 * non-ASCII text), the list's object must be the mapper's.
 */
describeApi('lists written as JSON', (t) => {
  const organisation = (i: number) => ({
    id: `org-${i}`,
    name: ['Alpha "quoted" Pharmacy', 'Bryn Cymraeg — Fferyllfa', 'Ćwiek \\ back', 'Delta', 'Echo'][i] as string,
    email: i === 1 ? null : `o${i}@example.test`,
    address_line1: i === 2 ? null : `${i} High Street`,
    address_line2: i === 3 ? 'Flat "2"' : null,
    address_line3: null,
    post_town: i === 4 ? null : 'CARDIFF',
    postcode: 'CF10 1AA',
    logo_path: [null, 'logos/a.png', '', 'logos/d.jpg', null][i] as string | null,
    logo_background_color: i === 3 ? '#112233' : null,
    archived_at: i % 2 ? 1_733_500_000_123 + i : null,
    archived_by_id: i % 2 ? `user-${i}` : null,
    archived_by_display: i === 1 ? 'Siân Jones' : null,
    created: 1_700_000_000_000 + i,
    updated: 1_700_000_000_500 + i,
  });

  it('gives each business and group as their mappers do, on every list shape', async () => {
    for (let i = 0; i < 5; i++) {
      await t.db
        .insertInto('groups')
        .values({ ...organisation(i), parent_id: i === 3 ? 'org-0' : null })
        .execute();
    }
    for (let i = 0; i < 5; i++) {
      await t.db
        .insertInto('businesses')
        .values({
          ...organisation(i),
          group_id: i === 2 ? 'org-0' : null,
          keyholders_mobile_numbers: i === 0 ? ['+447700900001', '+447700900002'] : [],
          notification_emails: i === 3 ? ['a"b@example.test', 'ü@example.test'] : [],
        })
        .execute();
    }
    const query = { archived: 'any', limit: 25 } as const;
    const parsed = <T>(rows: { item: { text: string } }[]) => rows.map((r) => JSON.parse(r.item.text) as T);

    const businesses = parsed(await listBusinessesByName(t.db, query));
    expect(businesses).toHaveLength(5);
    for (const listed of businesses as { id: string }[]) {
      const found = await findBusiness(t.db, listed.id);
      expect(listed).toEqual(found as never);
      const { id, name, address, archived } = found as NonNullable<typeof found>;
      const info = parsed(await listBusinessInfosByName(t.db, { ...query, filter: name }));
      expect(info).toContainEqual({ id, name, address, archived });
    }

    const groups = parsed(await listGroupsByName(t.db, query));
    expect(groups).toHaveLength(5);
    for (const listed of groups as { id: string }[]) {
      const found = await findGroup(t.db, listed.id);
      expect(listed).toEqual(found as never);
      const { id, name, archived } = found as NonNullable<typeof found>;
      expect(parsed(await listGroupInfosByName(t.db, { ...query, filter: name }))).toContainEqual({
        id,
        name,
        archived,
      });
    }
  });
});
