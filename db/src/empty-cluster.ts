/**
 * The empty database cluster a new PGlite database starts from, instead of running initdb.
 *
 * PGlite's initdb peaks near 1 GB (a second PGlite instance, the initdb WebAssembly module and a
 * tarball of the result, all at once); loading this tarball, made by PGlite's own `dumpDataDir` from a
 * freshly initialised instance, costs a few tens of MB. The cluster's files are only valid for the
 * PostgreSQL build inside the PGlite version that made them, so the file is named after that version:
 * when PGlite changes, the file is missing, a new database falls back to initdb, and
 * empty-cluster.test.ts fails until `bun db/scripts/make-empty-cluster.ts` is run (docs/decisions/database.md).
 *
 * Imports only node modules: packages/api/src/main.ts checks for the file before loading anything heavy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the tarballs live (committed). */
export const EMPTY_CLUSTER_DIR = join(import.meta.dir, '..', 'empty-cluster');

/** The version of the installed @electric-sql/pglite (its package.json is not exported: found from its entry). */
export function installedPgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The tarball's path for a PGlite version (the installed one by default). */
export function emptyClusterPath(version = installedPgliteVersion()): string {
  return join(EMPTY_CLUSTER_DIR, `pglite-${version}.tar.gz`);
}

/** True when a new database can start from the tarball (one made by the installed PGlite exists). */
export function hasEmptyCluster(): boolean {
  return existsSync(emptyClusterPath());
}

/** The tarball as PGlite's `loadDataDir` takes it, or undefined when there is none for the installed PGlite. */
export async function emptyClusterTarball(): Promise<File | undefined> {
  const path = emptyClusterPath();
  if (!existsSync(path)) return undefined;
  return new File([await Bun.file(path).arrayBuffer()], 'pgdata.tar.gz', { type: 'application/x-gzip' });
}
