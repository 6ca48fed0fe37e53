/**
 * What the RPC benches serve, shared by bench/rpc/server.ts (over HTTP) and bench/rpc/layers.ts (in
 * process): the api's config for the bench's mode, the 200 businesses the list reads, and the app's
 * dependencies around a database.
 */
import type { Db } from '../../db/src/index.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import type { AppDeps } from '../../packages/api/src/context/deps.ts';
import type { LiveHub } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { cachedAuth } from '../../packages/api/src/sessions/session-cache.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { benchApiEnv } from './mode.ts';

/** The api's config for the bench's mode. */
export function benchConfig() {
  return loadConfig(benchApiEnv());
}

/** The 200 businesses `businesses/listBusinesses` pages through, unless the database has some already. */
export async function seedBusinesses(db: Db['db'], now: number): Promise<void> {
  if ((await db.selectFrom('businesses').select('id').limit(1).execute()).length > 0) return;
  await db
    .insertInto('businesses')
    .values(
      Array.from({ length: 200 }, (_, i) => ({
        id: `bench-${String(i).padStart(4, '0')}`,
        name: `Pharmacy ${String(i).padStart(4, '0')} ${['Leeds', 'York', 'Hull', 'Bath'][i % 4]}`,
        email: `p${i}@bench.test`,
        address_line1: `${i} High Street`,
        post_town: 'LEEDS',
        postcode: 'LS1 4AP',
        created: now,
        updated: now,
      })),
    )
    .execute();
}

/** The app's dependencies: real session auth, behind the session cache unless `cache` is false. */
export function benchDeps(opened: Db, live: LiveHub, cache = true): AppDeps {
  const auth = createSessionAuth(() => opened.db);
  return {
    db: opened.db,
    dbKind: opened.kind,
    config: benchConfig(),
    logger: silentLogger,
    now: Date.now,
    auth: cache ? cachedAuth(auth, live) : auth,
    mailer: createMemoryMailer(),
    live,
  };
}
