/**
 * The api under test, in its own process: `bun bench/rpc/server.ts <port> pglite <dataDir> | postgres <url>`.
 * Migrates, seeds 200 businesses and a signed-in support user when the database is empty, serves the real
 * app (real session auth behind the session cache, as server.ts wires it; BENCH_CACHE=0 leaves the cache
 * out), and prints `ready <cookie>`.
 */
import { createDb } from '../../db/src/index.ts';
import { migrateToLatest } from '../../db/src/migrate.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { pgTransport } from '../../packages/api/src/live/pg-transport.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { benchDeps, seedBusinesses } from './fixture.ts';

const [port, kind, where] = process.argv.slice(2);
const opened = await createDb(
  kind === 'postgres'
    ? { kind: 'postgres', url: where as string, max: 10 }
    : { kind: 'pglite', dataDir: where as string },
);
await migrateToLatest(opened.db);
const now = Date.now();
await seedBusinesses(opened.db, now);
const { cookie } = await signInTestUser(opened.db, now, { support: true });
const live =
  kind === 'postgres'
    ? new LiveHub(await pgTransport(where as string, silentLogger), silentLogger)
    : new LiveHub(localTransport(), silentLogger);
// BENCH_MODE=production: the api as production runs it (fixture.ts); BENCH_CACHE=0: no session cache.
const app = createApp(benchDeps(opened, live, process.env.BENCH_CACHE !== '0')).listen({
  port: Number(port),
  hostname: '127.0.0.1',
});
console.log(`ready ${cookie}`);
process.on('SIGTERM', async () => {
  await app.stop(true);
  await live.close();
  await opened.close();
  process.exit(0);
});
