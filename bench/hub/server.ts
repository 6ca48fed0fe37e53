/**
 * The hub under test, in its own process so its CPU and memory can be measured apart from the load:
 * `bun bench/hub/server.ts <port> pglite <dataDir> | postgres <url>`. Prints "ready" when listening.
 */

import { createDb } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { anonymousAuth } from '../../packages/api/src/context/actor.ts';
import type { AppDeps } from '../../packages/api/src/context/deps.ts';
import { defaultMachineHubOptions } from '../../packages/api/src/hubs/machine/index.ts';
import { createLogger, silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMailer } from '../../packages/api/src/mail/mailer.ts';

const [port, kind, where] = process.argv.slice(2);
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  READINGS_COMMIT: process.env.READINGS_COMMIT,
  DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS,
});
const opened = await createDb(
  kind === 'postgres'
    ? { kind: 'postgres', url: where as string, max: 10, prepared: config.preparedStatements }
    : { kind: 'pglite', dataDir: where as string },
);
const deps: AppDeps = {
  db: opened.db,
  dbKind: opened.kind,
  config,
  logger: process.env.BENCH_LOG === 'debug' ? createLogger('debug', (line) => console.error(line)) : silentLogger,
  now: Date.now,
  auth: anonymousAuth,
  mailer: createMailer(config, silentLogger),
};
const app = createApp(deps, {
  heartbeatIntervalSeconds: 3600,
  sweepEveryMs: 0,
  // The product's batching (gathering included): what the bench measures is what lockers get.
  batch: {
    ...defaultMachineHubOptions.batch,
    ...(process.env.BENCH_GATHER_MS ? { gatherMs: Number(process.env.BENCH_GATHER_MS) } : {}),
    ...(process.env.BENCH_FLUSHES ? { concurrentFlushes: Number(process.env.BENCH_FLUSHES) } : {}),
  },
}).listen({ port: Number(port), hostname: '127.0.0.1' });
console.log('ready');
process.on('SIGTERM', async () => {
  await app.stop(true);
  await opened.close();
  process.exit(0);
});
