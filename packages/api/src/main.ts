// The server's entry. It imports nothing heavy before a first start's database is created (below),
// so that step's memory peak is not added to the server's (docs/PERFORMANCE.md, memory).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The process exits within this long of SIGTERM or Ctrl-C (after its drain), whatever is still open. */
const EXIT_AFTER_DRAIN_MS = 10_000;

/**
 * On PGlite with no database yet, creates it in a child process that exits (see init-data-dir.ts).
 * DATA_DIR is read as config/config.ts reads it; that validates everything once the server loads.
 */
function initPgliteDataDir(env: Record<string, string | undefined>) {
  if (env.DATABASE_URL?.trim()) return;
  const dataDir = resolve(env.DATA_DIR?.trim() || 'data');
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  if (env.NODE_ENV !== 'production') console.log(`  Creating the database in ${dataDir} (first start)…`);
  const made = spawnSync(process.execPath, [join(import.meta.dir, 'init-data-dir.ts'), dataDir], { stdio: 'inherit' });
  if (made.status !== 0) {
    const message = `The database could not be created in ${dataDir}; see the messages above.`;
    console.error(
      env.NODE_ENV === 'production'
        ? JSON.stringify({ level: 'fatal', time: new Date().toISOString(), pid: process.pid, msg: message })
        : `\n  ${message}\n`,
    );
    process.exit(1);
  }
}

initPgliteDataDir(process.env);
const { ConfigError } = await import('./config/config.ts');
const { startServer, PortInUse } = await import('./server.ts');
const { DataDirInUse } = await import('@medlocker/db');
const { announce, startupFailure } = await import('./log/logger.ts');

try {
  const server = await startServer();
  const { logger } = server;
  const production = server.config.production;
  announce(
    logger,
    production,
    'ready',
    { url: server.url, docs: `${server.url}/api/docs` },
    `\n  MedLocker console and API: ${server.url}   (API docs: ${server.url}/api/docs)\n`,
  );
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second Ctrl-C stops at once.
    if (stopping) process.exit(130);
    stopping = true;
    announce(
      logger,
      production,
      'stopping',
      { signal },
      `\n  ${signal}: stopping (lockers are told to reconnect; requests in flight finish)…`,
    );
    setTimeout(() => {
      logger.error('not stopped in time: exiting anyway');
      process.exit(1);
    }, server.config.shutdownDrainMs + EXIT_AFTER_DRAIN_MS).unref();
    server.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error('stopping failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // A promise nobody awaited that fails must not end the server for every other user (Bun exits on
  // one by default): it is logged, without its message (a database error's can carry patient data).
  process.on('unhandledRejection', (reason) => {
    const where = reason instanceof Error ? (reason.stack ?? '').split('\n').slice(1, 6).join('\n') : '';
    const kind = reason instanceof Error ? reason.name : typeof reason;
    logger.error('unhandled rejection; the server goes on', { kind, where });
  });
} catch (error) {
  if (error instanceof ConfigError) {
    startupFailure(process.env, 'invalid configuration', error.message);
    process.exit(2);
  }
  // Another server has this port or data folder: one per each, or they would share (and corrupt) them.
  if (error instanceof PortInUse || error instanceof DataDirInUse) {
    startupFailure(process.env, 'cannot start', `  ${error.message}`);
    process.exit(1);
  }
  throw error;
}
