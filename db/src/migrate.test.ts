import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { describeDb } from './testing.ts';

describeDb('migrations', (t) => {
  it('apply every migration, and migrating again changes nothing', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db);
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(t.db)).toEqual([]);
  });
});
