/**
 * `bun packages/api/src/init-data-dir.ts DIR`: creates a PGlite database in DIR, migrates it and seeds the
 * demo (with the server's configuration, from the same environment), then exits.
 *
 * PGlite's initdb runs several WebAssembly instances at once (about 0.9 GB), and WebAssembly memory
 * never shrinks: done inside the server, that peak stayed its idle size. main.ts runs this in a child
 * process on a first start, before loading the server, so the memory goes back to the OS when it exits.
 * With the empty cluster shipped for the installed PGlite (db/src/empty-cluster.ts), createDb starts the
 * new database from that tarball instead and initdb never runs (peak ~0.3 GB); the child stays, so the
 * tarball's buffers are not left in the server's heap either. Migrating and seeding here too keeps the
 * code and data of a first start's writes out of the server, whose idle memory is then a later start's
 * (bench/memory).
 */
import { createDb, migrateToLatest } from '@medlocker/db';
import { ConfigError, loadConfig } from './config/config.ts';
import { createLogger } from './log/logger.ts';
import { seedIfEmpty } from './seed-demo.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: bun packages/api/src/init-data-dir.ts DATA_DIR');
  process.exit(2);
}
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  // The server reports the configuration itself, with its own exit code; the database is left to it.
  if (error instanceof ConfigError) process.exit(0);
  throw error;
}
const logger = createLogger(config.logLevel);
const opened = await createDb({ kind: 'pglite', dataDir: dir });
const applied = await migrateToLatest(opened.db);
if (applied.length > 0) logger.info('database migrated', { applied: applied.join(',') });
// The server prints the development login line at every start; only the seeding is said here.
await seedIfEmpty({ db: opened.db, config, logger, now: Date.now }, { printDevLogin: false });
await opened.close();
