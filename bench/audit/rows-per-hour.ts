/**
 * bench/audit/rows-per-hour.ts: how many audit rows an hour of console work writes, by action.
 * On demand only, never part of `npm test`.
 *
 * The load is one busy pharmacy's hour at the console, as its pages call the api (the same mix the
 * audit trail's benchmark assumes): 120 pages of the orders list (the list is refetched after each live
 * update), 40 orders opened, 30 pages of the patients list (10 of them a name search), 20 patients
 * opened, 6 pages of the message outbox, 4 of sign-ups, 4 pages of collection records and one CSV
 * export of them, 30 reads of the businesses menu, 2 pages of the business's users. The business holds
 * 40 patients with an order each (so a list page is full: 25 rows). The calls go through the real app in process (`app.handle`) on PGlite; the rows
 * are counted from audit_log by action, and multiplied to an estate of 1,000 pharmacies.
 *
 *   bun bench/audit/rows-per-hour.ts
 */
import { sql } from 'kysely';
import { createDb, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { insertBusiness, testPatient } from '../../packages/api/src/testing/patients.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';

const ORIGIN = 'http://medlocker.bench';
const ESTATE = 1_000;
const opened = await createDb({ kind: 'pglite', dataDir: 'memory://' });
const db = opened.db;
await migrateToLatest(db);
const now = Date.now();
const app = createApp({
  db,
  dbKind: 'pglite',
  config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN }),
  logger: silentLogger,
  now: () => Date.now(),
  auth: createSessionAuth(() => db),
  mailer: createMemoryMailer(),
});

async function call(cookie: string, area: string, method: string, input: unknown): Promise<Record<string, unknown>> {
  const res = await app.handle(
    new Request(`${ORIGIN}/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
      body: JSON.stringify(input),
    }),
  );
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${area}.${method}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const businessId = await insertBusiness(db);
const support = await signInTestUser(db, now, { support: true });
const staff = await signInTestUser(db, now, {
  roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] }],
});
const machine = (await call(support.cookie, 'machines', 'createMachine', { businessId, name: 'L1', numberOfSlots: 60 }))
  .machine as { id: string };
const patients: string[] = [];
const orders: string[] = [];
for (let i = 1; i <= 40; i++) {
  const p = (await call(support.cookie, 'patients', 'create', { businessId, patient: testPatient(i) })).patient as {
    id: string;
  };
  patients.push(p.id);
  const o = (
    await call(support.cookie, 'orders', 'create', {
      businessId,
      patientId: p.id,
      machineId: machine.id,
      barcode: `RX-${i}`,
    })
  ).order as { id: string };
  orders.push(o.id);
}
// Collected orders for the records (a collection record is a collected order).
await db
  .updateTable('orders')
  .set({ status: 'collected', collected: now })
  .where('business_id', '=', businessId)
  .execute();
// The seeding's own entries are not the hour's (TRUNCATE: the append-only trigger refuses DELETE).
await sql`truncate audit_log`.execute(db);

const as = staff.cookie;
const day = new Date(now).toISOString().slice(0, 10);
const hour: [number, () => Promise<unknown>][] = [
  [120, () => call(as, 'orders', 'listOrdersByBusiness', { businessId })],
  [40, () => call(as, 'orders', 'get', { id: orders[0] })],
  [20, () => call(as, 'patients', 'list', { businessId })],
  [10, () => call(as, 'patients', 'list', { businessId, filter: 'Family1' })],
  [20, () => call(as, 'patients', 'get', { id: patients[0] })],
  [6, () => call(as, 'messages', 'listOutbox', { businessId })],
  [4, () => call(as, 'signUps', 'list', { businessId })],
  [4, () => call(as, 'reports', 'listCollectionStats', { businessId, startDate: day, endDate: day })],
  [1, () => call(as, 'reports', 'listCollectionStats', { businessId, startDate: day, endDate: day, getAll: true })],
  [30, () => call(as, 'businesses', 'listAccessibleBusinesses', {})],
  [2, () => call(as, 'users', 'getUsersByRole', { roleName: 'Business', roleResource: businessId })],
];
const t0 = performance.now();
for (const [times, fn] of hour) for (let i = 0; i < times; i++) await fn();
const rows = await db
  .selectFrom('audit_log')
  .select(['action', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy('action')
  .orderBy('action')
  .execute();
const counted = rows.map((r) => ({ action: r.action, n: Number(r.n) }));
const total = counted.reduce((s, r) => s + r.n, 0);
console.log(`${new Date().toISOString()}, commit ${Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD']).stdout}`);
console.log('| action | rows per pharmacy-hour | rows per hour, 1,000 pharmacies |\n|---|---|---|');
for (const r of counted) console.log(`| ${r.action} | ${r.n} | ${(r.n * ESTATE).toLocaleString('en-GB')} |`);
console.log(`| **all** | **${total}** | **${(total * ESTATE).toLocaleString('en-GB')}** |`);
console.log(`(the hour's calls took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
await opened.close();
