import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { supportSession } from '../../testing/businesses.ts';

describeApi('business paging under concurrent inserts', (t) => {
  const insert = async (name: string) => {
    const id = Bun.randomUUIDv7();
    await t.db.insertInto('businesses').values({ id, name, created: 1, updated: 1 }).execute();
    return id;
  };

  it('never repeats or skips a row while rows are added before, inside and after the pages', async () => {
    const { as } = await supportSession(t);
    // Names that collide in lower(name), so the id decides the order inside a name.
    const originals: string[] = [];
    for (let i = 0; i < 90; i++) {
      const name = `Pharmacy ${String(i % 30).padStart(3, '0')}`;
      originals.push(await insert(i % 2 ? name : name.toUpperCase()));
    }

    let inserting = true;
    const added: Promise<unknown>[] = [];
    // A writer adds rows all the time the reader pages: names sorting first, last and among the pages.
    const writer = (async () => {
      for (let n = 0; inserting; n++) {
        const name = [`AAA ${n}`, `Pharmacy ${String(n % 30).padStart(3, '0')}`, `ZZZ ${n}`][n % 3] as string;
        added.push(insert(name));
        await Bun.sleep(1);
      }
    })();

    const seen: { id: string; name: string }[] = [];
    let nextToken: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<typeof t.call<'businesses', 'listBusinesses'>>> = await t.call(
        'businesses',
        'listBusinesses',
        { filterText: 'pharmacy', nextToken },
        as,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.businesses.map((b) => ({ id: b.id, name: b.name })));
      nextToken = res.body.nextToken;
      pages++;
      await Bun.sleep(5);
    } while (nextToken);
    inserting = false;
    await writer;
    await Promise.all(added);

    const ids = seen.map((s) => s.id);
    // No repeats…
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBeGreaterThanOrEqual(4);
    // …no row that existed before paging began is skipped…
    const seenIds = new Set(ids);
    expect(originals.filter((id) => !seenIds.has(id))).toEqual([]);
    // …and the pages run in one strict (lower(name), id) order, whatever was inserted meanwhile.
    const key = (r: { id: string; name: string }) => `${r.name.toLowerCase()}\u0000${r.id}`;
    const keys = seen.map(key);
    expect(keys).toEqual([...keys].sort());
    expect(added.length).toBeGreaterThan(0);
  }, 30_000);
});
