import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { executePrepared, preparedStatement } from './create-db.ts';
import { describeDb } from './testing.ts';

describeDb('prepared statements', (t) => {
  it('runs a statement opening with preparedStatement as a named prepared statement on PostgreSQL, with the same answers', async () => {
    const doubled = (n: number) => sql<{ n: number }>`${preparedStatement('test_double')} select ${n}::int * 2 as n`;
    await t.db.connection().execute(async (db) => {
      expect((await doubled(2).execute(db)).rows).toEqual([{ n: 4 }]);
      expect((await doubled(5).execute(db)).rows).toEqual([{ n: 10 }]);
      // Another text under the same name is another statement (the name carries the text's hash).
      expect((await sql<{ n: number }>`${preparedStatement('test_double')} select 3 as n`.execute(db)).rows).toEqual([
        { n: 3 },
      ]);
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db);
      expect(rows.map((r) => r.name.replace(/_[0-9a-z]+$/, ''))).toEqual(
        t.kind === 'postgres' ? ['test_double', 'test_double'] : [],
      );
    });
  });

  it('runs a Kysely query through executePrepared as a named statement on PostgreSQL, with the same rows', async () => {
    await t.db.connection().execute(async (db) => {
      const query = (name: string) =>
        db.selectFrom('businesses').select(['id', 'name']).where('name', '=', name).orderBy('id').limit(2);
      expect(await executePrepared(db, 'test_list', query('x'))).toEqual([]);
      await db
        .insertInto('businesses')
        .values({
          id: 'b1',
          name: 'x',
          email: 'x@example.test',
          address_line1: '1 High St',
          post_town: 'LEEDS',
          postcode: 'LS1 4AP',
          created: 1,
          updated: 1,
        })
        .execute();
      expect(await executePrepared(db, 'test_list', query('x'))).toEqual([{ id: 'b1', name: 'x' }]);
      const { rows } = await sql<{ name: string }>`
        select name from pg_prepared_statements where name like 'test_list%'`.execute(db);
      expect(rows.length).toBe(t.kind === 'postgres' ? 1 : 0);
    });
  });
});
