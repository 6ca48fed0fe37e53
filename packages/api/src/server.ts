import { join } from 'node:path';
import { createDb, dbOptionsFromEnv, migrateToLatest, seedDemo } from '@medlocker/db';
import { createApp } from './app.ts';
import { startDemoFleet } from './areas/machines/fleet.ts';
import { cachedAuth } from './auth/session-cache.ts';
import { createSessionAuth } from './auth/sessions.ts';
import { type Config, DEV_ADMIN_PASSWORD, loadConfig } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createLogger } from './http/logger.ts';
import { LiveHub, localTransport } from './hubs/live.ts';
import { pgTransport } from './hubs/pg-transport.ts';
import { createMailer, localMailboxOf } from './mail/mailer.ts';

const CONSOLE_DIR = join(import.meta.dir, '../../console/dist');

/** Opens the database, migrates it, seeds the demo when empty, and serves. Returns a stop function. */
export async function startServer(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  const opened = await createDb(
    dbOptionsFromEnv({ DATABASE_URL: config.databaseUrl }, config.dataDir, { prepared: config.preparedStatements }),
  );
  const applied = await migrateToLatest(opened.db);
  if (applied.length > 0) logger.info('database migrated', { applied: applied.join(',') });
  await seedIfEmpty(opened.db, config, logger);

  // On PostgreSQL, live pushes go through LISTEN/NOTIFY so any number of api processes share them.
  const live = config.databaseUrl
    ? new LiveHub(await pgTransport(config.databaseUrl, logger), logger)
    : new LiveHub(localTransport(), logger);
  const deps: AppDeps = {
    db: opened.db,
    dbKind: opened.kind,
    config,
    logger,
    now: Date.now,
    // Sessions looked up once every few seconds, forgotten at once on logout, reset or role change.
    auth: cachedAuth(
      createSessionAuth(() => opened.db),
      live,
    ),
    mailer: createMailer(config, logger),
    live,
    consoleDir: CONSOLE_DIR,
  };
  const app = createApp(deps).listen({ port: config.port, hostname: config.host });
  const url = `http://localhost:${app.server?.port ?? config.port}`;
  if (localMailboxOf(deps.mailer)) {
    // Without SMTP, invitation and reset links are reachable only here: say where.
    logger.info('no SMTP_URL: mail goes to the local mailbox', { url: `${url}/mailbox` });
    console.log(`\n  No SMTP_URL: emails (invitations, password resets) go to the local mailbox, ${url}/mailbox\n`);
  }
  logger.info('serving', {
    url,
    database: opened.kind,
    dataDir: opened.kind === 'pglite' ? config.dataDir : undefined,
  });
  // The seeded demo lockers keep reporting while the server runs (DEMO_FLEET=0 turns them off).
  const demoFleet = env.DEMO_FLEET === '0' ? undefined : startDemoFleet(deps);
  return {
    app,
    url,
    config,
    stop: async () => {
      await demoFleet?.stop();
      await app.stop();
      await deps.live?.close();
      await opened.close();
    },
  };
}

async function seedIfEmpty(db: AppDeps['db'], config: Config, logger: AppDeps['logger']) {
  if (!config.seedAdminPassword) {
    logger.warn('no SEED_ADMIN_PASSWORD in production: the demo and first admin are not seeded');
    return;
  }
  const adminPasswordHash = await Bun.password.hash(config.seedAdminPassword, { algorithm: 'argon2id' });
  const { seeded } = await seedDemo(db, { adminEmail: config.seedAdminEmail, adminPasswordHash });
  const isDefault = config.seedAdminPassword === DEV_ADMIN_PASSWORD;
  if (seeded) console.log('\n  Demo data seeded.');
  // Printed at every development start, so whoever runs `npm start` knows how to log in; a password
  // given through SEED_ADMIN_PASSWORD is never printed.
  if (isDefault) {
    console.log(`\n  Log in as ${config.seedAdminEmail} with the development password ${DEV_ADMIN_PASSWORD}\n`);
  } else if (seeded) {
    console.log(`\n  Log in as ${config.seedAdminEmail} with the SEED_ADMIN_PASSWORD you set.\n`);
  }
}
