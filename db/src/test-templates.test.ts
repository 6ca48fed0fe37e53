import { expect, it } from 'bun:test';
import { type Kysely, sql } from 'kysely';
import { createDb, type Db } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';
import { createFreshPostgresDatabase, describeDb } from './testing.ts';

/** Tables, columns, indexes, constraints, triggers, functions and sequences of the public schema, as text. */
async function schemaOf(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ line: string }>`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
      || coalesce(column_default, '') as line
    from information_schema.columns where table_schema = 'public'
    union all select 'index ' || indexdef from pg_indexes where schemaname = 'public'
    union all select 'constraint ' || conrelid::regclass::text || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all select 'trigger ' || tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid)
      from pg_trigger where not tgisinternal
    union all select 'function ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc)
      from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all select 'sequence ' || sequencename from pg_sequences where schemaname = 'public'
    union all select 'extension ' || extname from pg_extension
    union all select 'migration ' || name from kysely_migration
    order by line`.execute(db);
  return rows.map((r) => r.line).join('\n');
}

describeDb('the migrated database every test file starts from', (t) => {
  it('has exactly the schema of a database migrated from empty, so the copy changes nothing a test sees', async () => {
    let fresh: Db;
    let drop = async () => {};
    if (t.kind === 'postgres') {
      const made = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL as string);
      drop = made.drop;
      fresh = await createDb({ kind: 'postgres', url: made.url, max: 1 });
    } else {
      fresh = await createDb({ kind: 'pglite', dataDir: 'memory://' });
    }
    try {
      await migrateToLatest(fresh.db);
      const copied = await schemaOf(t.db);
      expect(copied.split('\n').length).toBeGreaterThan(500);
      expect(copied).toBe(await schemaOf(fresh.db));
    } finally {
      await fresh.close();
      await drop();
    }
  }, 120_000);
});
