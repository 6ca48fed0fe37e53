/**
 * `bun packages/api/src/init-data-dir.ts DIR`: creates an empty PGlite database cluster in DIR and exits.
 *
 * PGlite's initdb runs several WebAssembly instances at once (about 0.9 GB), and WebAssembly memory
 * never shrinks: done inside the server, that peak stayed its idle size. main.ts runs this in a child
 * process on a first start, before loading the server, so the memory goes back to the OS when it exits.
 * With the empty cluster shipped for the installed PGlite (db/src/empty-cluster.ts), createDb starts the
 * new database from that tarball instead and initdb never runs (peak ~0.3 GB); the child stays, so the
 * tarball's buffers are not left in the server's heap either.
 */
import { createDb } from '@medlocker/db';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: bun packages/api/src/init-data-dir.ts DATA_DIR');
  process.exit(2);
}
const opened = await createDb({ kind: 'pglite', dataDir: dir });
await opened.close();
