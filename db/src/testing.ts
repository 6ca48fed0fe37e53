import { afterAll, beforeAll, beforeEach, describe } from 'bun:test';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Db, type DbKind } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';
import { copyPostgresTemplate, migratedPgliteTarball, postgresTemplate } from './test-templates.ts';

export type TestDb = {
  kind: DbKind;
  /** The open database of the current target; valid inside tests and hooks. */
  readonly db: Kysely<Database>;
};

/** The targets a database test runs on: always PGlite; PostgreSQL too when `TEST_DATABASE_URL` is set. */
export function dbTargets(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Runs `body` once per target. Each target opens one migrated database for the whole file (PGlite
 * takes seconds to start) and empties every table before each test (`emptyTables`). On PostgreSQL each
 * file gets its own database, copied from a migrated template and dropped afterwards, so parallel runs
 * never collide.
 */
export function describeDb(name: string, body: (t: TestDb) => void): void {
  for (const kind of dbTargets()) {
    describe(`${name} [${kind}]`, () => {
      let opened: Db | undefined;
      let dropDatabase: (() => Promise<void>) | undefined;
      let emptier: Emptier | undefined;
      const t: TestDb = {
        kind,
        get db() {
          if (!opened) throw new Error('the test database is not open yet');
          return opened.db;
        },
      };
      beforeAll(async () => {
        // A copy of a database migrated once for all test files (test-templates.ts), not a migration per file.
        if (kind === 'postgres') {
          const fresh = await createMigratedPostgresDatabase(process.env.TEST_DATABASE_URL as string);
          dropDatabase = fresh.drop;
          opened = await createDb({ kind: 'postgres', url: fresh.url, max: 5 });
        } else {
          opened = await createDb({ kind: 'pglite', dataDir: 'memory://', from: await migratedPgliteTarball() });
        }
        // Nothing to do on a copy; migrations added since the copy was made would run here.
        await migrateToLatest(opened.db);
        emptier = await emptierOf(opened.db);
      }, 60_000);
      beforeEach(async () => {
        if (opened && emptier) await emptyTables(opened.db, emptier);
      }, 60_000);
      afterAll(async () => {
        await opened?.close();
        await dropDatabase?.();
      }, 60_000);
      body(t);
    });
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** How to empty the user tables: one statement deleting every row, and the tables for the fallback. */
type Emptier = { tables: string[]; statement: string | null };

/**
 * Works out, once per database, one statement that deletes every row of every user table, referencing
 * tables before the ones they reference (truncating the few whose triggers refuse deletes), and restarts
 * any sequence. `delete` on a test's few rows costs
 * milliseconds where `truncate` of ~40 tables costs a new file for every table and index (~0.3 s a test on
 * PGlite, more on a loaded machine). Tables that reference each other in a cycle get no statement: truncate.
 */
async function emptierOf(db: Kysely<Database>): Promise<Emptier> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_migration%'
    order by tablename`.execute(db);
  const tables = rows.map((r) => r.name);
  const { rows: edges } = await sql<{ child: string; parent: string }>`
    select c.relname as child, p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = 'public'`.execute(db);
  const { rows: sequences } = await sql<{ name: string }>`
    select sequencename as name from pg_sequences where schemaname = 'public'`.execute(db);
  // A table with a BEFORE DELETE trigger refuses deletes (the append-only audit_log): truncated instead.
  const { rows: guarded } = await sql<{ name: string }>`
    select distinct c.relname as name
    from pg_trigger g
    join pg_class c on c.oid = g.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where not g.tgisinternal and n.nspname = 'public' and (g.tgtype & 2) <> 0 and (g.tgtype & 8) <> 0`.execute(db);
  const truncated = new Set(guarded.map((g) => g.name));
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    // Tables no remaining table references (a table referencing itself is emptied by one delete).
    const free = [...left].filter((x) => !edges.some((e) => e.parent === x && e.child !== x && left.has(e.child)));
    if (free.length === 0) return { tables, statement: null };
    for (const x of free) {
      order.push(x);
      left.delete(x);
    }
  }
  const statements = [
    ...order.filter((x) => !truncated.has(x)).map((x) => `delete from ${quote(x)};`),
    ...(truncated.size > 0 ? [`truncate table ${[...truncated].map(quote).join(', ')} cascade;`] : []),
    ...sequences.map((s) => `alter sequence ${quote(s.name)} restart;`),
  ];
  return { tables, statement: statements.length > 0 ? `do $$ begin ${statements.join(' ')} end $$` : null };
}

/**
 * Empties every user table. Should the deletes fail (a trigger that refuses a delete in this order), the
 * statement changed nothing and `truncate … cascade` does it instead.
 */
async function emptyTables(db: Kysely<Database>, emptier: Emptier): Promise<void> {
  if (emptier.tables.length === 0) return;
  if (emptier.statement !== null) {
    try {
      await sql.raw(emptier.statement).execute(db);
      return;
    } catch {}
  }
  await truncateTables(db, emptier.tables);
}

async function truncateTables(db: Kysely<Database>, tables: string[]): Promise<void> {
  const list = tables.map(quote).join(', ');
  await sql.raw(`truncate table ${list} restart identity cascade`).execute(db);
}

/** Every row of every table (but the migration bookkeeping), as `restoreTables` puts them back. */
export type TableSnapshot = { tables: { table: string; columns: string[]; rows: string }[]; emptier: Emptier };

/** The user tables and their columns, in one query. */
async function tableColumns(db: Kysely<Database>): Promise<{ table: string; columns: string[] }[]> {
  const { rows } = await sql<{ table: string; columns: string[] }>`
    select c.table_name as table, array_agg(c.column_name::text order by c.ordinal_position) as columns
    from information_schema.columns c
    join pg_tables t on t.schemaname = c.table_schema and t.tablename = c.table_name
    where c.table_schema = 'public' and c.table_name not like 'kysely_migration%' and c.is_generated = 'NEVER'
    group by c.table_name
    order by c.table_name`.execute(db);
  return rows;
}

/** Every row of every user table, in one round trip: each table's rows as a JSON array, by its first column. */
export async function readTables(db: Kysely<Database>): Promise<TableSnapshot['tables']> {
  const tables = await tableColumns(db);
  const select = tables
    .map(
      ({ table, columns }) =>
        `select '${table}' as name, (select coalesce(json_agg(r order by r.${quote(columns[0] as string)}), '[]')::text from ${quote(table)} r) as rows`,
    )
    .join(' union all ');
  const { rows } = await sql.raw<{ name: string; rows: string }>(select).execute(db);
  const byName = new Map(rows.map((r) => [r.name, r.rows]));
  return tables.map(({ table, columns }) => ({ table, columns, rows: byName.get(table) ?? '[]' }));
}

/**
 * Every row of every table, so a test file can build an expensive estate once and put it back before each
 * test with `restoreTables`, instead of building it again.
 */
export async function snapshotTables(db: Kysely<Database>): Promise<TableSnapshot> {
  return { tables: await readTables(db), emptier: await emptierOf(db) };
}

/**
 * Empties every table and puts back the rows of `snapshot`, in one more statement: the inserts are
 * data-modifying CTEs, and PostgreSQL checks foreign keys (and the constraint triggers) at the end of the
 * statement, so the order of the tables does not matter. The same rows come back: ids, hashes, times.
 */
export async function restoreTables(db: Kysely<Database>, snapshot: TableSnapshot): Promise<void> {
  await emptyTables(db, snapshot.emptier);
  const filled = snapshot.tables.filter((s) => s.rows !== '[]');
  if (filled.length === 0) return;
  const inserts = filled.map(({ table, columns }, i) => {
    const list = columns.map(quote).join(', ');
    return `i${i} as (insert into ${quote(table)} (${list}) select ${list} from json_populate_recordset(null::${quote(table)}, $${i + 1}::json))`;
  });
  await db.executeQuery(
    CompiledQuery.raw(
      `with ${inserts.join(', ')} select 1`,
      filled.map((s) => s.rows),
    ),
  );
  // Tables that triggers append to when the others are written (migration 0028): the put-back rows
  // appended some of their own; they hold exactly the snapshot's rows again.
  for (const table of TRIGGER_WRITTEN) {
    const saved = snapshot.tables.find((s) => s.table === table);
    if (!saved) continue;
    const list = saved.columns.map(quote).join(', ');
    await sql.raw(`delete from ${quote(table)}`).execute(db);
    if (saved.rows !== '[]') {
      await db.executeQuery(
        CompiledQuery.raw(
          `insert into ${quote(table)} (${list}) select ${list} from json_populate_recordset(null::${quote(table)}, $1::json)`,
          [saved.rows],
        ),
      );
    }
  }
}

/** Tables written by triggers on other tables (the monthly figures' change log, migration 0028). */
const TRIGGER_WRITTEN = ['monthly_stats_changes'];

/** Creates `medlocker_test_<random>` on the server of `baseUrl` and returns its URL and a drop function. */
export function createFreshPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  return createTestDatabase(baseUrl, (admin, name) => admin.query(`create database "${name}"`));
}

/**
 * As createFreshPostgresDatabase, but a copy of the migrated template (test-templates.ts): already migrated.
 * Its sessions commit without waiting for the disk (`synchronous_commit = off`, this database only): a
 * test never outlives a server crash, and the wait was ~8 ms a commit, most of a PostgreSQL test's time.
 */
export async function createMigratedPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await postgresTemplate(baseUrl);
  return createTestDatabase(baseUrl, async (admin, name) => {
    await copyPostgresTemplate(admin, name, template);
    await admin.query(`alter database "${name}" set synchronous_commit = off`);
  });
}

async function createTestDatabase(
  baseUrl: string,
  create: (admin: pg.Client, name: string) => Promise<unknown>,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `medlocker_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await create(admin, name);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The demo seed's PIN sealer for db tests, which have no SECRETS_KEY: a stand-in "sealed" value and a
 * lookup unique per call, never a PIN in clear (the api's is orders/pin.ts drawSealedPin).
 */
export const stubOrderPin = (orderId: string) => ({
  pin: `sealed:${orderId}`,
  pinLookup: `lookup:${Bun.randomUUIDv7()}`,
});
