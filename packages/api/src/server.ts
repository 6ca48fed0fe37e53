import { join } from 'node:path';
import { createDb, dbOptionsFromEnv, migrateToLatest } from '@medlocker/db';
import { createApp } from './app.ts';
import { startDemoFleet } from './areas/machines/index.ts';
import { type Config, loadConfig } from './config/config.ts';
import type { AppDeps } from './context/deps.ts';
import { startJobRunner } from './job-handlers.ts';
import { LiveHub, localTransport } from './live/live.ts';
import { pgTransport } from './live/pg-transport.ts';
import { announce, createLogger, type Logger } from './log/logger.ts';
import { createLocalTexts } from './mail/local-texts.ts';
import { createMailer, localMailboxOf } from './mail/mailer.ts';
import { startLocalJudopay } from './payments/local-judopay.ts';
import { seedIfEmpty } from './seed-demo.ts';
import { cachedAuth } from './sessions/session-cache.ts';
import { createSessionAuth } from './sessions/sessions.ts';

const CONSOLE_DIR = join(import.meta.dir, '../../console/dist');
const PATIENT_DIR = join(import.meta.dir, '../../patient/dist');

/** Opens the database (PGlite or PostgreSQL), migrates it and seeds it when empty. */
async function openDatabase(config: Config, logger: Logger) {
  const opened = await createDb(
    dbOptionsFromEnv({ DATABASE_URL: config.databaseUrl }, config.dataDir, { prepared: config.preparedStatements }),
  );
  const applied = await migrateToLatest(opened.db);
  if (applied.length > 0) logger.info('database migrated', { applied: applied.join(',') });
  await seedIfEmpty({ db: opened.db, config, logger, now: Date.now });
  return opened;
}

type Opened = Awaited<ReturnType<typeof openDatabase>>;

/** The app's dependencies for a real process: live pushes, cached sessions, the configured mailer. */
async function depsOf(config: Config, logger: Logger, opened: Opened): Promise<AppDeps> {
  // On PostgreSQL, live pushes go through LISTEN/NOTIFY so any number of api processes share them.
  const live = config.databaseUrl
    ? new LiveHub(await pgTransport(config.databaseUrl, logger), logger)
    : new LiveHub(localTransport(), logger);
  return {
    db: opened.db,
    dbKind: opened.kind,
    dbPool: opened.pool,
    config,
    logger,
    now: Date.now,
    // Sessions looked up once every few seconds, forgotten at once on logout, reset or role change.
    auth: cachedAuth(
      createSessionAuth(() => opened.db),
      live,
    ),
    mailer: createMailer(config, logger),
    // Outside production, texts whose provider has no credentials are kept for the Mailbox page.
    ...(config.production ? {} : { localTexts: createLocalTexts(logger) }),
    live,
    lifecycle: { draining: false },
    consoleDir: CONSOLE_DIR,
    patientDir: PATIENT_DIR,
  };
}

/** Opens the database, migrates it, seeds it when empty, and serves. Returns a stop function. */
export async function startServer(env: Record<string, string | undefined> = process.env) {
  const loaded = loadConfig(env);
  // Outside production (JUDOPAY_LOCAL), sandbox card payments go to a local Judopay started here.
  const localJudopay = loaded.judopay.local && !loaded.production ? startLocalJudopay() : undefined;
  const config: Config = localJudopay
    ? { ...loaded, judopay: { ...loaded.judopay, apiUrl: localJudopay.url } }
    : loaded;
  const logger = createLogger(config.logLevel);
  const opened = await openDatabase(config, logger).catch((error) => {
    localJudopay?.stop();
    throw error;
  });
  const deps = await depsOf(config, logger, opened);
  const app = listenOrClose(createApp(deps).wrap(withAbsoluteUrl), config, opened.close);
  const url = `http://localhost:${app.server?.port ?? config.port}`;
  if (localMailboxOf(deps.mailer)) {
    // Without SMTP (never in production), invitation and reset links are reachable only here: say where.
    announce(
      logger,
      config.production,
      'no SMTP_URL: mail goes to the local mailbox',
      { url: `${url}/mailbox` },
      `\n  No SMTP_URL: emails (invitations, password resets) go to the local mailbox, ${url}/mailbox\n`,
    );
  }
  if (localJudopay) {
    announce(
      logger,
      config.production,
      'sandbox card payments go to the local Judopay',
      { url: localJudopay.url },
      `\n  Card payments (sandbox): the local Judopay, ${localJudopay.url}: no card is charged (README: "Trying it out without providers")\n`,
    );
  }
  logger.info('serving', {
    url,
    database: opened.kind,
    dataDir: opened.kind === 'pglite' ? config.dataDir : undefined,
  });
  // The demo's lockers keep reporting while the server runs (DEMO_FLEET=0 turns them off); never in production.
  const demoFleet = config.production || env.DEMO_FLEET === '0' ? undefined : startDemoFleet(deps);
  // Background work runs here unless JOBS=off (then `npm run worker` or another api process runs it).
  const jobs = startJobRunner(deps, env);
  /**
   * Graceful shutdown: fail /readyz for SHUTDOWN_DRAIN_SECONDS (a balancer takes the process out); stop
   * accepting connections; close the lockers' sockets with 1001 (going away, so they reconnect to another
   * instance) and the consoles' sockets; let requests in flight finish; then close the database.
   * Whatever is still open after `graceMs` is cut.
   */
  const stop = async (graceMs = STOP_GRACE_MS) => {
    if (config.shutdownDrainMs > 0 && app.server && deps.lifecycle) {
      // Out of the balancer's rotation first: /readyz fails while requests are still served.
      deps.lifecycle.draining = true;
      logger.info('draining', { ms: config.shutdownDrainMs });
      await Bun.sleep(config.shutdownDrainMs);
    }
    await demoFleet?.stop();
    await stopServing(app, logger, graceMs);
    // Jobs in hand finish, or go back to waiting, before the database closes.
    await jobs?.stop(Math.min(graceMs, JOBS_GRACE_MS));
    await deps.live?.close();
    localJudopay?.stop();
    await opened.close();
    logger.info('stopped');
  };
  /** The open database (the e2e harness seeds what no flow can make yet, e.g. a dead job). */
  return { app, url, config, logger, db: opened.db, stop };
}

/**
 * Stops taking connections; the hubs' stop handlers close their sockets (lockers 1001, consoles 1001);
 * requests in flight get `graceMs`, then are cut.
 */
async function stopServing(app: ReturnType<typeof createApp>, logger: Logger, graceMs: number): Promise<void> {
  const server = app.server;
  if (!server) return;
  const drained = server.stop(false);
  for (const hook of app.event.stop ?? []) await hook.fn(app as never);
  app.server = null;
  const timedOut = await Promise.race([drained.then(() => false), Bun.sleep(graceMs).then(() => true)]);
  if (timedOut) {
    logger.warn('stopping: requests still open after the grace period were cut', { graceMs });
    await server.stop(true);
  }
}

/** Thrown when another process listens on the port already. */
export class PortInUse extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is in use by another process: stop it, or set PORT to another port`);
  }
}

/**
 * Listens on the configured port alone: Elysia asks for SO_REUSEPORT by default, which would let a second
 * server share the port (and half the calls land on a process without their sessions). A port in use
 * closes the database again and stops the start with PortInUse.
 */
function listenOrClose<A extends { listen: (options: Record<string, unknown>) => A }>(
  app: A,
  config: { port: number; host: string },
  closeDb: () => Promise<void>,
): A {
  try {
    return app.listen({ port: config.port, hostname: config.host, reusePort: false });
  } catch (error) {
    void closeDb();
    if (String(error).includes('in use')) throw new PortInUse(config.port);
    throw error;
  }
}

/** How long requests in flight may take to finish at shutdown (the process exits within 10 s). */
export const STOP_GRACE_MS = 7_000;

/** How long jobs in hand may take to finish at shutdown before they are returned to waiting. */
const JOBS_GRACE_MS = 2_000;

/**
 * An HTTP/1.0 request without a Host header (HAProxy's default health check) reaches the server
 * with a relative URL (`/healthz`), which `new URL()` refuses: it is answered as if sent to localhost.
 */
function withAbsoluteUrl(handle: (request: Request, server?: unknown) => unknown) {
  return (request: Request, server?: unknown) =>
    handle(request.url.startsWith('/') ? new Request(`http://localhost${request.url}`, request) : request, server);
}
