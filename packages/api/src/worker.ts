// `npm run worker`: the job runner alone, without serving HTTP, for deployments that run background
// work apart from the api processes (which then run with JOBS=off). Several workers may run on one
// PostgreSQL. On PGlite the database belongs to one process: run the worker only while no server runs.
import { createDb, dbOptionsFromEnv, migrateToLatest } from '@medlocker/db';
import { Elysia } from 'elysia';
import { ConfigError, loadConfig } from './config/config.ts';
import type { AppDeps } from './context/deps.ts';
import { metricsRoutes } from './http/metrics-routes.ts';
import { runJobs } from './job-handlers.ts';
import { LiveHub } from './live/live.ts';
import { pgTransport } from './live/pg-transport.ts';
import { createLogger, startupFailure } from './log/logger.ts';
import { createMailer } from './mail/mailer.ts';
import { createSessionAuth } from './sessions/sessions.ts';

/** Jobs in hand get this long to finish at SIGTERM before they go back to waiting. */
const STOP_GRACE_MS = 8_000;

try {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const opened = await createDb(
    // A connection for every job in hand and a few over: a job waiting for a connection after the gateway
    // answered is a job whose answer a crash would lose (delivery/messages/send.ts: then left unconfirmed).
    dbOptionsFromEnv({ DATABASE_URL: config.databaseUrl }, config.dataDir, {
      prepared: config.preparedStatements,
      max: config.jobsConcurrency + 4,
    }),
  );
  await migrateToLatest(opened.db);
  // On PostgreSQL the worker's order changes (a message sent or failed, an expiry) reach the consoles of
  // every api process through LISTEN/NOTIFY, as the api's own do. (On PGlite nothing else runs.)
  const live = config.databaseUrl ? new LiveHub(await pgTransport(config.databaseUrl, logger), logger) : undefined;
  const deps: AppDeps = {
    db: opened.db,
    dbKind: opened.kind,
    config,
    logger,
    now: Date.now,
    auth: createSessionAuth(() => opened.db),
    mailer: createMailer(config, logger),
    live,
  };
  const runner = runJobs(deps);
  // Its own /metrics (the job failures it counted, the queue, the pool, the build) and /healthz, on
  // WORKER_METRICS_PORT (0: none): Prometheus scrapes the worker as it scrapes the api processes.
  const probe =
    config.workerMetricsPort === 0
      ? undefined
      : new Elysia({ name: 'worker' })
          .get('/healthz', () => ({ ok: true }))
          .use(metricsRoutes(deps))
          .listen({ port: config.workerMetricsPort, hostname: config.host, reusePort: false });
  logger.info('worker started', { database: opened.kind, metricsPort: probe?.server?.port });
  let stopping = false;
  const shutdown = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    await runner.stop(STOP_GRACE_MS);
    await probe?.stop();
    await live?.close();
    await opened.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    startupFailure(process.env, 'invalid configuration', error.message);
    process.exit(2);
  }
  throw error;
}
