/**
 * `bun db/scripts/make-empty-cluster.ts`: writes db/empty-cluster/pglite-<installed version>.tar.gz, the
 * empty cluster new PGlite databases start from (db/src/empty-cluster.ts), and removes the tarballs of
 * other versions. Run it after changing the PGlite version; empty-cluster.test.ts fails until then.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { EMPTY_CLUSTER_DIR, emptyClusterPath, installedPgliteVersion } from '../src/empty-cluster.ts';

const version = installedPgliteVersion();
const target = emptyClusterPath(version);
// Exactly what PGlite does for a new database with no tarball: initdb with its default parameters.
const pglite = await PGlite.create('memory://');
await pglite.exec('checkpoint');
const tarball = await pglite.dumpDataDir('gzip');
await pglite.close();
mkdirSync(EMPTY_CLUSTER_DIR, { recursive: true });
await Bun.write(target, tarball);
for (const name of readdirSync(EMPTY_CLUSTER_DIR)) {
  if (join(EMPTY_CLUSTER_DIR, name) !== target) rmSync(join(EMPTY_CLUSTER_DIR, name));
}
console.log(`Wrote ${target} (${(tarball.size / 1024 / 1024).toFixed(1)} MB) for PGlite ${version}.`);
