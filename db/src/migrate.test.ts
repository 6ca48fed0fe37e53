import { expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { readEnums, renderSchema } from '../scripts/generate-types.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { describeDb } from './testing.ts';

describeDb('migrations', (t) => {
  it('apply every migration, and migrating again changes nothing', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.db);
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('match the committed schema types (run `npm run db:types` after a migration)', async () => {
    const generated = renderSchema(await t.db.introspection.getTables(), await readEnums(t.db));
    expect(generated).toBe(readFileSync(new URL('./schema.ts', import.meta.url), 'utf8'));
  });

  // Last in this file: it takes the schema down and puts it back for whatever runs next.
  it('undo every migration down to an empty schema, and apply again', async () => {
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_tables
      where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(t.db);
    expect(rows[0]?.n).toBe(0);
    expect(await migrateToLatest(t.db)).toEqual(Object.keys(migrations));
  }, 60_000);
});
