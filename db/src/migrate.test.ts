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

  it('give existing accounts their last sign-in and the upgrade as their start (0043)', async () => {
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0042_machine_owner_and_reported_slots')).error).toBeUndefined();
    await sql`insert into users (id, email, email_normalised, front_end, created, updated)
              values ('u1', 'a@x.test', 'a@x.test', 'pharmacy', 1000, 1000),
                     ('u2', 'b@x.test', 'b@x.test', 'pharmacy', 1000, 1000)`.execute(t.db);
    await sql`insert into sessions (id, token_hash, user_id, created, expires_at, idle_expires_at, last_seen)
              values ('s1', 'h1', 'u1', 5000, 9000, 9000, 5000), ('s2', 'h2', 'u1', 7000, 9000, 9000, 7000)`.execute(
      t.db,
    );
    const before = Date.now();
    await migrateToLatest(t.db);
    const { rows } = await sql<{ id: string; last_sign_in: string | null; enabled_at: string | null }>`
      select id, last_sign_in, enabled_at from users order by id`.execute(t.db);
    expect(rows.map((r) => [r.id, r.last_sign_in === null ? null : Number(r.last_sign_in)])).toEqual([
      ['u1', 7000],
      ['u2', null],
    ]);
    for (const row of rows) expect(Number(row.enabled_at)).toBeGreaterThanOrEqual(before - 1000);
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
