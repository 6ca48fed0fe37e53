/**
 * Migrated databases for tests, made once and copied for every test file (describeDb, testing.ts).
 *
 * Running the ~50 migrations costs seconds per database (5–8 s each on PGlite and on PostgreSQL on the
 * loaded 2-core CI machine), and every database-bound test file opened one of each: about half of the
 * unit phase. Instead the first file migrates one database and keeps it; the others copy it:
 * - PGlite: the migrated cluster as a tarball (PGlite's `dumpDataDir`) in the system's temporary folder,
 *   loaded by `createDb`'s `from` as a new database loads the shipped empty cluster;
 * - PostgreSQL: a template database on the test server, `create database … template …` for each file.
 * Both are named after a hash of db/src/migrations (and PGlite's version): a changed or added migration
 * is a new name, so a stale copy is never used. Other checkouts sharing the server (or /tmp) keep their own.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect } from 'kysely';
import pg from 'pg';
import { createDb, PGLITE_CONF } from './create-db.ts';
import { emptyClusterTarball, installedPgliteVersion } from './empty-cluster.ts';
import { migrateToLatest } from './migrate.ts';

const MIGRATIONS_DIR = join(import.meta.dir, 'migrations');

/** A short hash of every file under db/src/migrations (names and contents): the schema the copies hold. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(join(MIGRATIONS_DIR, name)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where the PGlite tarballs are kept between test processes. */
export const PGLITE_TEMPLATE_DIR = join(tmpdir(), 'medlocker-test-templates');

/**
 * The migrated PGlite cluster as `createDb`'s `from` takes it: read from the temporary folder, or made
 * (migrated in memory, dumped, written under a temporary name then renamed, so a reader never sees half
 * a file; two processes making it at once both write the same thing).
 */
export async function migratedPgliteTarball(): Promise<File> {
  const path = join(PGLITE_TEMPLATE_DIR, `pglite-${installedPgliteVersion()}-${migrationsHash()}.tar`);
  const file = Bun.file(path);
  if (await file.exists()) return new File([await file.arrayBuffer()], 'pgdata.tar', { type: 'application/x-tar' });
  // PGlite itself rather than createDb: dumpDataDir is on the instance, which a Db does not expose.
  const pglite = await PGlite.create('memory://', {
    loadDataDir: await emptyClusterTarball(),
    postgresqlconf: PGLITE_CONF,
    extensions: { pg_trgm },
  });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
  let tarball: File | Blob;
  try {
    await migrateToLatest(db);
    await pglite.exec('checkpoint');
    tarball = await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
  mkdirSync(PGLITE_TEMPLATE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await Bun.write(partial, tarball);
  try {
    renameSync(partial, path);
  } catch {
    rmSync(partial, { force: true });
  }
  return new File([await tarball.arrayBuffer()], 'pgdata.tar', { type: 'application/x-tar' });
}

/** Any number: the advisory lock under which one process at a time makes a template on the server. */
const TEMPLATE_LOCK = 7_362_041;

const withDatabase = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** PostgreSQL refuses to rename or copy a database while a session (one just closing) is still in it. */
async function retryWhileInUse(query: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await query();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await Bun.sleep(100);
    }
  }
}

/**
 * The name of the migrated template database on the server of `baseUrl`, made on first use: under an
 * advisory lock, migrated as `<name>_making` and renamed when complete, so a half-made template is never
 * copied (one a crashed run left behind is dropped and made again).
 */
export async function postgresTemplate(baseUrl: string): Promise<string> {
  const name = `medlocker_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return name;
    const making = `${name}_making`;
    await admin.query(`drop database if exists "${making}" with (force)`);
    await admin.query(`create database "${making}"`);
    const opened = await createDb({ kind: 'postgres', url: withDatabase(baseUrl, making), max: 1 });
    try {
      await migrateToLatest(opened.db);
    } finally {
      await opened.close();
    }
    await retryWhileInUse(() => admin.query(`alter database "${making}" rename to "${name}"`));
    return name;
  } finally {
    await admin.end();
  }
}

/** `create database <name> template <template>`, waiting out a session still leaving the template. */
export async function copyPostgresTemplate(admin: pg.Client, name: string, template: string): Promise<void> {
  await retryWhileInUse(() => admin.query(`create database "${name}" template "${template}"`));
}
