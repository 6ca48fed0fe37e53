import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type Compilable, Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { emptyClusterTarball } from './empty-cluster.ts';
import type { Database } from './schema.ts';

export type DbKind = 'pglite' | 'postgres';

export type DbOptions =
  /** PostgreSQL over `pg`; `max` is the pool size; `prepared: false` sends preparedStatement's statements unnamed. */
  | { kind: 'postgres'; url: string; max?: number; prepared?: boolean }
  /**
   * Embedded PGlite: a directory on disk, or `memory://` for a throw-away database. `from`: the cluster a
   * new database starts from instead of the empty one (tests start from a migrated copy, testing.ts).
   */
  | { kind: 'pglite'; dataDir: string; from?: File };

/** A connection pool's state now: connections open, of those idle, and queries waiting for one. */
export type PoolStats = { total: number; idle: number; waiting: number };

export type Db = {
  db: Kysely<Database>;
  kind: DbKind;
  /**
   * The pool's state (the /metrics gauges). PostgreSQL: pg's pool. PGlite: its one embedded connection,
   * always open; it has no idle or waiting count of its own (Kysely queues queries for it), so `null`s.
   */
  pool(): PoolStats | { total: 1; idle: null; waiting: null };
  close(): Promise<void>;
};

const INT8 = 20;
// Timestamps are integer milliseconds and money integer pence, stored as bigint: both stay far below
// 2^53, so reading them back as JS numbers is exact and spares every caller a string conversion.
const parseInt8 = (value: string) => Number(value);

const MARK = '/* prepared: ';

/**
 * The opening of a statement that runs as a named prepared statement on PostgreSQL: each connection
 * parses and plans it once instead of at every execution. For statements whose text never changes that
 * run many times a second (the hub's readings batch); PGlite runs it as any other statement.
 */
export const preparedStatement = (name: string) => sql.raw(`${MARK}${name} */ `);

/**
 * Runs a Kysely query as preparedStatement's named statement on PostgreSQL (PGlite runs it as any other): for
 * hot reads whose text is one of a few fixed shapes, with nothing in the text that changes the best
 * plan (PostgreSQL may keep one generic plan for a named statement after five executions).
 */
export async function executePrepared<R>(db: Kysely<Database>, name: string, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  const { rows } = await db.executeQuery<R>({ ...compiled, sql: `${MARK}${name} */ ${compiled.sql}` });
  return rows;
}

/** Sends a statement opening with `preparedStatement`'s mark as a named statement (text and name tied). */
function prepareMarked(client: pg.PoolClient) {
  const plain = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text === 'string' && text.startsWith(MARK)) {
      // The text's hash in the name: a changed text (another build, another setting) is a new statement.
      const name = `${text.slice(MARK.length, text.indexOf(' */'))}_${Bun.hash(text).toString(36)}`;
      return plain({ name, text, values }, callback);
    }
    return plain(text, values, callback);
  }) as typeof client.query;
}

/** PGlite's settings: 16 MB of shared buffers instead of 128 MB (idle RSS 228 → 106 MB for PGlite). */
export const PGLITE_CONF = ['shared_buffers=8MB'];

/** Opens PGlite or PostgreSQL behind the same Kysely type. Migrations are run separately (migrate.ts). */
export async function createDb(options: DbOptions): Promise<Db> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // A client that loses its connection (PostgreSQL restarting or failing over, an administrator ending
    // the backend: 57P01; a test database dropped while the pool closes) emits the error on itself, idle
    // or lent out. This listener logs it once and keeps it from ending the process: before, a lent-out
    // client had none. What ran on that connection fails; the pool drops the client (at once when idle,
    // when given back otherwise) and opens a new one on the next query. The pool re-emits an idle
    // client's error on itself: its listener is there only so that re-emit cannot end the process.
    let closing = false;
    pool.on('connect', (client) =>
      client.on('error', (error) => {
        if (!closing) console.warn(`PostgreSQL connection lost: ${error.message}`);
      }),
    );
    pool.on('error', () => {});
    if (options.prepared !== false) pool.on('connect', prepareMarked);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        closing = true;
        await db.destroy();
      },
    };
  }
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(options.dataDir, { recursive: true });
  // One process per folder: a second one stops here with the first one's process id.
  const unlock = inMemory ? () => {} : lockDataDir(options.dataDir);
  // A new database starts from the shipped empty cluster instead of running initdb (~1 GB of memory
  // and seconds of CPU): see empty-cluster.ts. Without a tarball for this PGlite, PGlite runs initdb.
  const isNew = inMemory || !existsSync(join(options.dataDir, 'PG_VERSION'));
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(options.dataDir, {
      loadDataDir: isNew ? (options.from ?? (await emptyClusterTarball())) : undefined,
      parsers: { [INT8]: parseInt8 },
      // PostgreSQL's default 128 MB of shared buffers is all touched in PGlite's WebAssembly memory (RSS);
      // the embedded database is small and the OS caches its files anyway (docs/PERFORMANCE.md, memory).
      postgresqlconf: PGLITE_CONF,
      // pg_trgm: the lists' "contains" search indexes (migration 0013).
      extensions: { pg_trgm },
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    pool: () => ({ total: 1, idle: null, waiting: null }),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      unlock();
    },
  };
}

/** Reads the database choice from the environment: `DATABASE_URL` selects PostgreSQL, else PGlite in `dataDir`. */
export function dbOptionsFromEnv(
  env: { DATABASE_URL?: string | undefined },
  dataDir: string,
  postgres: { prepared?: boolean; max?: number } = {},
): DbOptions {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: 'postgres', url, ...postgres };
  return { kind: 'pglite', dataDir };
}
