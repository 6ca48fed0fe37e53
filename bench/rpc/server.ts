/**
 * The api under test, in its own process: `bun bench/rpc/server.ts <port> pglite <dataDir> | postgres <url>`.
 * Migrates, seeds 200 businesses and a signed-in support user when the database is empty, serves the real
 * app (real session auth behind the session cache, as server.ts wires it; BENCH_CACHE=0 leaves the cache
 * out), and prints `ready <cookie>`.
 */
import { createDb } from '../../db/src/index.ts';
import { migrateToLatest } from '../../db/src/migrate.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import type { AppDeps } from '../../packages/api/src/context/deps.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { pgTransport } from '../../packages/api/src/live/pg-transport.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { cachedAuth } from '../../packages/api/src/sessions/session-cache.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';

const [port, kind, where] = process.argv.slice(2);
// BENCH_MODE=production: the api as production runs it (no output check against the contract), with the
// variables production refuses to start without (no mail is sent; the address is the load's origin).
const config = loadConfig(
  process.env.BENCH_MODE === 'production'
    ? {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'https://127.0.0.1',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        SECRETS_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
      }
    : { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' },
);
const opened = await createDb(
  kind === 'postgres'
    ? { kind: 'postgres', url: where as string, max: 10 }
    : { kind: 'pglite', dataDir: where as string },
);
await migrateToLatest(opened.db);
const now = Date.now();
const existing = await opened.db.selectFrom('businesses').select('id').limit(1).execute();
if (existing.length === 0) {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    id: `bench-${String(i).padStart(4, '0')}`,
    name: `Pharmacy ${String(i).padStart(4, '0')} ${['Leeds', 'York', 'Hull', 'Bath'][i % 4]}`,
    email: `p${i}@bench.test`,
    address_line1: `${i} High Street`,
    address_line2: null,
    address_line3: null,
    post_town: 'LEEDS',
    postcode: 'LS1 4AP',
    created: now,
    updated: now,
  }));
  await opened.db.insertInto('businesses').values(rows).execute();
}
const { cookie } = await signInTestUser(opened.db, now, { support: true });
const live =
  kind === 'postgres'
    ? new LiveHub(await pgTransport(where as string, silentLogger), silentLogger)
    : new LiveHub(localTransport(), silentLogger);
const auth = createSessionAuth(() => opened.db);
const deps: AppDeps = {
  db: opened.db,
  dbKind: opened.kind,
  config,
  logger: silentLogger,
  now: Date.now,
  auth: process.env.BENCH_CACHE === '0' ? auth : cachedAuth(auth, live),
  mailer: createMemoryMailer(),
  live,
};
const app = createApp(deps).listen({ port: Number(port), hostname: '127.0.0.1' });
console.log(`ready ${cookie}`);
process.on('SIGTERM', async () => {
  await app.stop(true);
  await live.close();
  await opened.close();
  process.exit(0);
});
