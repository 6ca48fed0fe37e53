import { afterAll, beforeAll, beforeEach, describe } from 'bun:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Db, type DbKind } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

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
 * takes seconds to start) and empties every table before each test. On PostgreSQL each file gets
 * its own fresh database, dropped afterwards, so parallel runs never collide.
 */
export function describeDb(name: string, body: (t: TestDb) => void): void {
  for (const kind of dbTargets()) {
    describe(`${name} [${kind}]`, () => {
      let opened: Db | undefined;
      let dropDatabase: (() => Promise<void>) | undefined;
      let tables: string[] = [];
      const t: TestDb = {
        kind,
        get db() {
          if (!opened) throw new Error('the test database is not open yet');
          return opened.db;
        },
      };
      beforeAll(async () => {
        if (kind === 'postgres') {
          const fresh = await createFreshPostgresDatabase(process.env.TEST_DATABASE_URL as string);
          dropDatabase = fresh.drop;
          opened = await createDb({ kind: 'postgres', url: fresh.url, max: 5 });
        } else {
          opened = await createDb({ kind: 'pglite', dataDir: 'memory://' });
        }
        await migrateToLatest(opened.db);
        tables = await userTables(opened.db);
      }, 60_000);
      beforeEach(async () => {
        if (opened && tables.length > 0) await resetTables(opened.db, tables);
      });
      afterAll(async () => {
        await opened?.close();
        await dropDatabase?.();
      }, 60_000);
      body(t);
    });
  }
}

async function userTables(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(db);
  return rows.map((r) => r.name);
}

async function resetTables(db: Kysely<Database>, tables: string[]): Promise<void> {
  const list = tables.map((t) => `"${t}"`).join(', ');
  await sql.raw(`truncate table ${list} restart identity cascade`).execute(db);
}

/** Creates `medlocker_test_<random>` on the server of `baseUrl` and returns its URL and a drop function. */
export async function createFreshPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `medlocker_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
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
