/**
 * Where an RPC read's time goes, in-process (no sockets): `bun bench/rpc/profile.ts [postgres url]` (a fresh
 * database is made from the url and dropped; PGlite in memory without one).
 * Times N sequential `listBusinesses` calls through app.handle, then the same list query alone.
 */
import { sql } from 'kysely';
import { createDb, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { listBusinessesByName } from '../../packages/api/src/areas/businesses/repository.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { cachedAuth } from '../../packages/api/src/sessions/session-cache.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';

const fresh = process.argv[2] ? await createFreshPostgresDatabase(process.argv[2]) : undefined;
const opened = await createDb(fresh ? { kind: 'postgres', url: fresh.url } : { kind: 'pglite', dataDir: 'memory://' });
await migrateToLatest(opened.db);
const now = Date.now();
if ((await opened.db.selectFrom('businesses').select('id').limit(1).execute()).length === 0) {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    id: `p-${i}`,
    name: `Pharmacy ${i}`,
    email: 'a@b.test',
    address_line1: 'x',
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
const live = new LiveHub(localTransport(), silentLogger);
const app = createApp({
  db: opened.db,
  dbKind: opened.kind,
  config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' }),
  logger: silentLogger,
  now: Date.now,
  auth: cachedAuth(
    createSessionAuth(() => opened.db),
    live,
  ),
  mailer: createMemoryMailer(),
  live,
});
const call = () =>
  app.handle(
    new Request('http://127.0.0.1/api/businesses/listBusinesses', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1', cookie },
      body: '{}',
    }),
  );
const time = async (label: string, n: number, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 50; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(`${label}: ${((performance.now() - t0) / n).toFixed(3)} ms`);
};
await time('listBusinesses through app.handle', 500, async () => (await call()).text());
await time('listBusinessesByName alone', 500, () => listBusinessesByName(opened.db, { archived: 'active', limit: 25 }));
await time('select 1', 500, () => opened.db.selectFrom('businesses').select('id').limit(1).execute());
const compiled = opened.db
  .selectFrom('businesses')
  .selectAll()
  .select(sql<string>`lower(name)`.as('name_key'))
  .where('archived_at', 'is', null)
  .orderBy(sql`lower(name)`)
  .orderBy('id')
  .limit(26)
  .compile();
const explained = await sql.raw(`explain analyze ${compiled.sql.replace('$1', '26')}`).execute(opened.db);
for (const r of explained.rows as Record<string, string>[]) console.log(Object.values(r)[0]);
await opened.close();
await fresh?.drop();
