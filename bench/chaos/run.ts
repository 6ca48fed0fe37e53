/**
 * `npm run chaos`: the product's promises while parts of it fail. On demand, never part of
 * `npm test` (it takes minutes).
 *
 * Starts a private PostgreSQL (bench/chaos/postgres.ts: the machine's own is never restarted), then
 * `npm run cluster` on it (CLUSTER_SIZE api processes, default 3, behind HAProxy), a local The SMS Works
 * (accepts every message, posts its delivery report back through the balancer shortly after, like the
 * provider) and a local webhook receiver (counts every `webhook-id` it answered 2xx for). It seeds
 * CHAOS_LOCKERS lockers (default 1,000), a business sending SMS through that gateway, patients and an
 * integration client whose webhooks go to the receiver, and connects the lockers, all in this process
 * (packages/locker-sim's SimLocker, in memory), through HAProxy.
 *
 * For CHAOS_SECONDS (default 90) a steady flow runs: lockers send temperature readings (every 5 s, in
 * batches every 30 s) and machine events (one a second per 20 lockers, each with a text of its own);
 * the integration API creates an order every 250 ms (an Idempotency-Key, retried with the same key on any
 * failure), the order's bag is loaded into a locker (BagLoaded), which queues the patient's message
 * (SMS) and webhooks. Meanwhile, at 15 %, 35 %, 55 % and 75 % of the time:
 *   1. `kill -9` an api process (the cluster script starts it again);
 *   2. restart PostgreSQL (`pg_ctl restart -m fast`: every connection cut);
 *   3. `kill -9` HAProxy, which the cluster script starts again 10 s later (CLUSTER_BALANCER_RESTART_SECONDS);
 *   4. flood one locker: CHAOS_FLOOD (default 1,000) machine events at once.
 * Then it stops the flow and waits (at most CHAOS_DRAIN_SECONDS, default 180) until every locker's queue
 * is empty and no message or webhook is left to send, and checks: every locker event stored once (each
 * event's text in machine_events exactly once, no locker sequence number twice), every order created once
 * and loaded where its bag went, every message accepted by the gateway once, every webhook received
 * once. Prints a table; exits 1 on any violation.
 *
 *   npm run chaos        (CHAOS_LOCKERS=100 CHAOS_SECONDS=40 for a quick run)
 */
import pg from 'pg';
import { createDb } from '../../db/src/index.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { SimLocker } from '../../packages/locker-sim/src/locker.ts';
import { machineAlerts } from '../../packages/locker-sim/src/protocol.ts';
import { processAlive, type RunningCluster, startCluster } from '../../scripts/cluster-kit.ts';
import { seed } from '../hub/harness.ts';
import { type PrivatePostgres, startPrivatePostgres } from './postgres.ts';

const env = process.env;
const LOCKERS = Number(env.CHAOS_LOCKERS ?? 1000);
const SECONDS = Number(env.CHAOS_SECONDS ?? 90);
const SIZE = Number(env.CLUSTER_SIZE ?? 3);
const FLOOD = Number(env.CHAOS_FLOOD ?? 1000);
const DRAIN_S = Number(env.CHAOS_DRAIN_SECONDS ?? 180);
const PATIENTS = 20;
const ORDER_EVERY_MS = 250;
const EVENTS_PER_S = Math.max(1, Math.round(LOCKERS / 20));
const JWT = 'JWT chaos-token';
const BUSINESS = 'bench';
const INFO_CODE =
  (Object.entries(machineAlerts) as [string, { level: string }][]).find(
    ([code, a]) => code.startsWith('EM_') && a.level === 'info',
  )?.[0] ?? 'EM_0001';

const log = (text: string) => console.log(`${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${text}`);
const t0 = performance.now();
const freePort = () => {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
};

// ---------------------------------------------------------------------------------------------------
// The SMS Works, locally: every message accepted (tag = our message id), its delivery report posted back.

const accepted = new Map<string, string[]>();
let reportsPosted = 0;
let reportFailures = 0;
let gatewaySeq = 0;
async function postReport(url: string, report: Record<string, unknown>) {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(report),
        signal: AbortSignal.timeout(10_000),
      });
      await res.text();
      if (res.ok) {
        reportsPosted++;
        return;
      }
    } catch {}
    reportFailures++;
    await Bun.sleep(1000);
  }
}
const gateway = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    if (req.method !== 'POST' || new URL(req.url).pathname !== '/v1/message/send')
      return Response.json({ message: 'Not found' }, { status: 404 });
    if (req.headers.get('authorization') !== JWT) return Response.json({ message: 'Unauthorised' }, { status: 401 });
    const body = (await req.json().catch(() => null)) as Record<string, unknown> | null;
    const tag = body?.tag;
    if (typeof tag !== 'string') return Response.json({ message: 'tag is required' }, { status: 400 });
    const messageid = `chaos-${++gatewaySeq}`;
    accepted.set(tag, [...(accepted.get(tag) ?? []), messageid]);
    if (typeof body?.deliveryreporturl === 'string') {
      const report = {
        messageid,
        status: 'DELIVERED',
        destination: Number(body.destination),
        sender: body.sender,
        content: body.content,
        tag,
        created: new Date().toISOString(),
      };
      const url = body.deliveryreporturl;
      setTimeout(() => void postReport(url, report), 200 + Math.random() * 800);
    }
    return Response.json({ messageid, status: 'SENT', credits: 1 }, { status: 201 });
  },
});

// ---------------------------------------------------------------------------------------------------
// The webhook receiver: answers 2xx and counts each webhook-id.

const received = new Map<string, number>();
const receiver = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    await req.arrayBuffer();
    const id = req.headers.get('webhook-id') ?? '';
    received.set(id, (received.get(id) ?? 0) + 1);
    return new Response(null, { status: 204 });
  },
});

// ---------------------------------------------------------------------------------------------------

let postgres: PrivatePostgres | undefined;
let cluster: RunningCluster | undefined;
const lockers: SimLocker[] = [];
let cleaning = false;
async function cleanup() {
  if (cleaning) return;
  cleaning = true;
  for (const l of lockers) l.stop();
  gateway.stop(true);
  receiver.stop(true);
  if (cluster && cluster.proc.exitCode === null) await cluster.stop('SIGINT', 30_000).catch(() => {});
  postgres?.stop();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });
}

type Row = { check: string; expected: number; got: number; missing: number; duplicates: number; note?: string };

async function main(): Promise<number> {
  console.log(
    `chaos: ${LOCKERS} lockers, ${SECONDS} s, ${SIZE} api processes, flood ${FLOOD}; ${new Date().toISOString()} · Bun ${Bun.version}`,
  );
  postgres = startPrivatePostgres(freePort());
  log(`private PostgreSQL on port ${postgres.port}`);
  const port = freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  cluster = await startCluster({
    databaseUrl: postgres.url,
    size: SIZE,
    port,
    output: env.CHAOS_VERBOSE === '1' ? 'inherit' : 'ignore',
    env: {
      PUBLIC_URL: publicUrl,
      SMSWORKS_JWT: JWT,
      SMSWORKS_API_URL: `http://127.0.0.1:${gateway.port}`,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      MESSAGES_UNCONFIRMED_GRACE_SECONDS: '15',
      CLUSTER_BALANCER_RESTART_SECONDS: '10',
      CLUSTER_API_PORT: String(freePort()),
    },
  });
  const pids = new Set(cluster.pids);
  log(`cluster up: ${cluster.url}, api pids ${[...cluster.apis.values()].join(', ')}`);

  // Seed: the lockers (business 'bench'), its SMS gateway, a support session for the RPC calls.
  const opened = await createDb({ kind: 'postgres', url: postgres.url, max: 4 });
  const { tokens } = await seed(opened, LOCKERS);
  const now = Date.now();
  await opened.db
    .insertInto('business_controlled_settings')
    .values({ business_id: BUSINESS, settings: JSON.stringify({ smsGateway: 'thesmsworks' }), updated: now })
    .execute();
  const { cookie } = await signInTestUser(opened.db, now, { support: true });
  await opened.close();
  const rpc = async (area: string, method: string, input: unknown) => {
    const res = await fetch(`${publicUrl}/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicUrl, cookie },
      body: JSON.stringify(input),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${area}/${method}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const client = await rpc('integration', 'createOrUpdateIntegrationClient', {
    businessId: BUSINESS,
    name: 'Chaos PMR',
    contactEmail: 'chaos@pmr.example',
    suppressPatientMessages: false,
    webhookUrl: `http://127.0.0.1:${receiver.port}/hooks`,
    rateLimit: 3600,
  });
  const clientId = client.client.id as string;
  const { secret } = await rpc('integration', 'generateClientSecret', { id: clientId });
  let bearer = '';
  const token = async () => {
    const res = await fetch(`${publicUrl}/integration/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    });
    const body = (await res.json()) as { access_token: string };
    if (res.status !== 200) throw new Error(`oauth/token: ${res.status} ${JSON.stringify(body)}`);
    bearer = body.access_token;
  };
  await token();
  /** An integration POST with an Idempotency-Key, sent again with the same key until it is answered (not 5xx). */
  const integrationPost = async (path: string, body: unknown, key: string, until: number) => {
    let attempts = 0;
    while (Date.now() < until) {
      attempts++;
      try {
        const res = await fetch(`${publicUrl}/integration/v1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'idempotency-key': key },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        const answer = await res.json().catch(() => null);
        if (res.status === 401) await token().catch(() => {});
        else if (res.status < 500 && res.status !== 429) return { status: res.status, body: answer, attempts };
      } catch {}
      await Bun.sleep(1000);
    }
    return { status: 0, body: null, attempts };
  };
  const patientIds: string[] = [];
  for (let p = 0; p < PATIENTS; p++) {
    const created = await integrationPost(
      '/patients',
      {
        displayId: `CHAOS-${p}`,
        name: { given: `Given${p}`, family: `Family${p}` },
        mobileNumber: `+447700900${String(p).padStart(3, '0')}`,
      },
      `patient-${p}`,
      Date.now() + 30_000,
    );
    if (created.status >= 300) throw new Error(`patients: ${created.status} ${JSON.stringify(created.body)}`);
    patientIds.push(created.body.patient.id);
  }
  log(`seeded ${LOCKERS} lockers, ${PATIENTS} patients, integration client ${clientId}`);

  // The lockers, through the balancer, 100 at a time.
  for (let i = 0; i < LOCKERS; i++) {
    lockers.push(
      new SimLocker({
        api: publicUrl,
        index: i,
        credentials: {
          machineId: `m${i}`,
          accessToken: tokens[i] as string,
          accessTokenExpires: now + 24 * 3600_000,
          refreshToken: `r-${tokens[i]}`,
        },
        readingEverySeconds: 5,
        batchEverySeconds: 30,
      }),
    );
  }
  for (let i = 0; i < LOCKERS; i += 100) {
    for (const l of lockers.slice(i, i + 100)) await l.start();
    await Bun.sleep(100);
  }
  const online = () => lockers.filter((l) => l.status === 'online').length;
  const upBy = Date.now() + 120_000;
  while (online() < LOCKERS && Date.now() < upBy) await Bun.sleep(500);
  log(`${online()} of ${LOCKERS} lockers online`);

  // The flow.
  const eventTexts: string[] = [];
  const orders: { k: number; barcode: string; locker: number; id?: string; status?: number; attempts?: number }[] = [];
  const loadsSent: typeof orders = [];
  let flowing = true;
  const eventTicker = setInterval(() => {
    if (!flowing) return;
    for (let e = 0; e < Math.max(1, Math.round(EVENTS_PER_S / 10)); e++) {
      const i = Math.floor(Math.random() * LOCKERS);
      const text = `chaos-${i}-${eventTexts.length}`;
      eventTexts.push(text);
      lockers[i]?.alarm(INFO_CODE, 'info', text);
    }
  }, 100);
  const inFlight = new Set<Promise<void>>();
  const orderTicker = setInterval(() => {
    if (!flowing) return;
    const k = orders.length;
    const order: (typeof orders)[number] = { k, barcode: `CHAOS${String(k).padStart(6, '0')}`, locker: k % LOCKERS };
    orders.push(order);
    const p = (async () => {
      const res = await integrationPost(
        '/orders',
        { patientId: patientIds[k % PATIENTS], barcode: order.barcode },
        `order-${k}`,
        Date.now() + 120_000,
      );
      order.status = res.status;
      order.attempts = res.attempts;
      if (res.status === 201) {
        order.id = res.body.order.id;
        lockers[order.locker]?.loadBag(order.barcode, `S${k}`);
        loadsSent.push(order);
      }
    })();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, ORDER_EVERY_MS);

  // The faults, at fixed shares of the time.
  const actions: { at: string; what: string; took: string }[] = [];
  const at = (share: number) => Bun.sleep(Math.max(0, share * SECONDS * 1000 - (performance.now() - flowStart)));
  const flowStart = performance.now();
  const stamp = () => `${((performance.now() - flowStart) / 1000).toFixed(1)} s`;

  await at(0.15);
  {
    const [apiPort, victim] = [...cluster.apis.entries()][Math.floor(Math.random() * cluster.apis.size)] as [
      number,
      number,
    ];
    const when = stamp();
    const t = performance.now();
    process.kill(victim, 'SIGKILL');
    log(`kill -9 api on port ${apiPort} (pid ${victim})`);
    const back = await cluster.next((l) => l.role === 'api' && l.port === apiPort, 120_000);
    pids.add(back.pid);
    actions.push({ at: when, what: `kill -9 api process ${victim}`, took: `back in ${ms(performance.now() - t)}` });
    log(`api on port ${apiPort} back (pid ${back.pid})`);
  }
  await at(0.35);
  {
    const when = stamp();
    log('restarting PostgreSQL');
    const took = postgres.restart();
    actions.push({ at: when, what: 'restart PostgreSQL (pg_ctl restart -m fast)', took: `down ${ms(took)}` });
    log(`PostgreSQL back after ${took} ms`);
  }
  await at(0.55);
  {
    const when = stamp();
    const t = performance.now();
    process.kill(cluster.balancerPid, 'SIGKILL');
    log(`kill -9 HAProxy (pid ${cluster.balancerPid}); back in 10 s`);
    const back = await cluster.next((l) => l.role === 'balancer', 60_000);
    pids.add(back.pid);
    actions.push({
      at: when,
      what: `kill -9 HAProxy ${cluster.balancerPid}, down 10 s`,
      took: `back in ${ms(performance.now() - t)}`,
    });
    log(`HAProxy back (pid ${back.pid})`);
  }
  await at(0.75);
  const floodText = (n: number) => `flood-0-${n}`;
  {
    const when = stamp();
    for (let n = 0; n < FLOOD; n++) lockers[0]?.alarm(INFO_CODE, 'info', floodText(n));
    actions.push({ at: when, what: `flood locker 0 with ${FLOOD} events`, took: '–' });
    log(`flooded locker 0 with ${FLOOD} events`);
  }
  await at(1);
  flowing = false;
  clearInterval(eventTicker);
  clearInterval(orderTicker);
  log(`flow stopped: ${eventTexts.length} events, ${orders.length} orders; waiting for the orders in flight`);
  await Promise.all(inFlight);

  // Drain: every locker queue empty, nothing left to send.
  const check = new pg.Client({ connectionString: postgres.url });
  await check.connect();
  const q = async <T>(text: string, values: unknown[] = []) => (await check.query(text, values)).rows as T[];
  const drainBy = Date.now() + DRAIN_S * 1000;
  let left = { queued: 0, jobs: 0, deliveries: 0, unconfirmed: 0 };
  while (Date.now() < drainBy) {
    const queued = lockers.reduce((n, l) => n + l.view().queued, 0);
    const [jobs] = await q<{ n: number }>(
      `select count(*)::int as n from jobs where status in ('waiting', 'running') and type in ('message.send', 'message.reconcile', $1)`,
      ['webhooks.dispatch'],
    );
    const [deliveries] = await q<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status = 'pending'`,
    );
    const [unconfirmed] = await q<{ n: number }>(
      `select count(*)::int as n from message_outbox where status = 'pending'`,
    );
    left = { queued, jobs: jobs?.n ?? 0, deliveries: deliveries?.n ?? 0, unconfirmed: unconfirmed?.n ?? 0 };
    if (Object.values(left).every((n) => n === 0)) break;
    await Bun.sleep(2000);
  }
  log(`drained: ${JSON.stringify(left)}`);
  await Bun.sleep(3000); // the last delivery reports

  // The checks.
  const rows: Row[] = [];
  const stored = new Map(
    (
      await q<{ message: string; n: number }>(
        `select message, count(*)::int as n from machine_events where business_id = $1 and (message like 'chaos-%' or message like 'flood-%') group by message`,
        [BUSINESS],
      )
    ).map((r) => [r.message, r.n]),
  );
  const countOnce = (name: string, expected: string[], got: Map<string, number>, note?: string): Row => {
    let missing = 0;
    let duplicates = 0;
    for (const x of expected) {
      const n = got.get(x) ?? 0;
      if (n === 0) missing++;
      else if (n > 1) duplicates += n - 1;
    }
    return {
      check: name,
      expected: expected.length,
      got: [...got.values()].reduce((a, b) => a + b, 0),
      missing,
      duplicates,
      ...(note ? { note } : {}),
    };
  };
  rows.push(countOnce('locker events (MachineEvent) stored once', eventTexts, stored));
  rows.push(
    countOnce(
      `flooded locker's events stored once`,
      Array.from({ length: FLOOD }, (_, n) => floodText(n)),
      stored,
    ),
  );
  // The stored total above counts both kinds; each row's own total:
  (rows[0] as Row).got = eventTexts.reduce((n, x) => n + (stored.get(x) ?? 0), 0);
  (rows[1] as Row).got = Array.from({ length: FLOOD }, (_, n) => stored.get(floodText(n)) ?? 0).reduce(
    (a, b) => a + b,
    0,
  );
  const [seqDupes] = await q<{ n: number }>(
    `select count(*)::int as n from (select machine_id, sequence from locker_event_receipts where business_id = $1 group by 1, 2 having count(*) > 1) d`,
    [BUSINESS],
  );
  const [receipts] = await q<{ n: number }>(
    `select count(*)::int as n from locker_event_receipts where business_id = $1`,
    [BUSINESS],
  );
  rows.push({
    check: 'locker sequence numbers used once (receipts)',
    expected: receipts?.n ?? 0,
    got: receipts?.n ?? 0,
    missing: 0,
    duplicates: seqDupes?.n ?? 0,
  });
  const unacked = lockers.reduce((n, l) => n + l.view().queued, 0);
  rows.push({
    check: 'locker events left unacknowledged',
    expected: 0,
    got: unacked,
    missing: unacked,
    duplicates: 0,
  });

  // Orders: each created once, loaded where its bag went; none in a state it cannot be in.
  const orderRows = await q<{
    barcode: string;
    n: number;
    status: string;
    machine_id: string | null;
    expires_at: string | null;
  }>(
    `select barcode, count(*) over (partition by barcode)::int as n, status, machine_id, expires_at from orders where business_id = $1 and barcode like 'CHAOS%'`,
    [BUSINESS],
  );
  const byBarcode = new Map(orderRows.map((r) => [r.barcode, r]));
  const notCreated = orders.filter((o) => o.status !== 201);
  let wrongPlace = 0;
  for (const o of loadsSent) {
    const r = byBarcode.get(o.barcode);
    if (r?.status !== 'loaded' || r.machine_id !== `m${o.locker}` || r.expires_at === null) wrongPlace++;
  }
  const impossible = orderRows.filter(
    (r) =>
      !['new', 'loaded', 'collected', 'cancelled', 'removed', 'expired'].includes(r.status) ||
      (r.status === 'loaded' && (r.machine_id === null || r.expires_at === null)),
  ).length;
  rows.push({
    check: 'orders created once (Idempotency-Key retries)',
    expected: orders.length,
    got: orderRows.length,
    missing: notCreated.length + orders.filter((o) => o.status === 201 && !byBarcode.has(o.barcode)).length,
    duplicates: orderRows.filter((r) => r.n > 1).length,
    note: `${orders.filter((o) => (o.attempts ?? 1) > 1).length} needed a retry`,
  });
  rows.push({
    check: 'orders loaded where their bag went, none impossible',
    expected: loadsSent.length,
    got: loadsSent.length - wrongPlace,
    missing: wrongPlace,
    duplicates: impossible,
    note: 'duplicates column: orders in an impossible state',
  });

  // Messages: one order-ready message per loaded order; each accepted by the gateway once.
  const outbox = await q<{ id: string; order_id: string | null; status: string; provider_message_id: string | null }>(
    `select id, order_id, status, provider_message_id from message_outbox where business_id = $1`,
    [BUSINESS],
  );
  const perOrder = new Map<string, number>();
  for (const m of outbox) if (m.order_id) perOrder.set(m.order_id, (perOrder.get(m.order_id) ?? 0) + 1);
  rows.push(
    countOnce(
      'a message queued per loaded order',
      loadsSent.map((o) => o.id as string),
      perOrder,
    ),
  );
  const gatewayCounts = new Map([...accepted.entries()].map(([tag, ids]) => [tag, ids.length]));
  const msgRow = countOnce(
    'messages delivered to the gateway once',
    outbox.map((m) => m.id),
    gatewayCounts,
    `${reportsPosted} delivery reports posted (${reportFailures} failed tries, retried)`,
  );
  rows.push(msgRow);
  const mismatched = outbox.filter((m) => {
    const ids = accepted.get(m.id);
    return ids && m.provider_message_id !== null && !ids.includes(m.provider_message_id);
  }).length;
  if (mismatched > 0) msgRow.note = `${msgRow.note}; ${mismatched} with another provider id`;

  // Webhooks: every delivery received once.
  const deliveries = await q<{ id: string; status: string }>(
    `select id, status from webhook_deliveries where client_id = $1`,
    [clientId],
  );
  const [events] = await q<{ n: number }>(`select count(*)::int as n from integration_events where client_id = $1`, [
    clientId,
  ]);
  rows.push(
    countOnce(
      'webhooks received once',
      deliveries.map((d) => d.id),
      received,
      `${events?.n ?? 0} integration events; ${deliveries.filter((d) => d.status !== 'succeeded').length} deliveries not succeeded`,
    ),
  );
  await check.end();

  console.log(
    `\nnpm run chaos — ${new Date().toISOString()}: ${LOCKERS} lockers (${online()} online at the end), ${SIZE} api processes, ${SECONDS} s of flow, ${eventTexts.length} events + ${FLOOD} flood, ${orders.length} orders\n`,
  );
  console.log('| when | fault | recovery |');
  console.log('|---|---|---|');
  for (const a of actions) console.log(`| ${a.at} | ${a.what} | ${a.took} |`);
  console.log('\n| check | expected | got | missing | duplicates | result | note |');
  console.log('|---|---|---|---|---|---|---|');
  let violations = 0;
  for (const r of rows) {
    const ok = r.missing === 0 && r.duplicates === 0;
    if (!ok) violations++;
    console.log(
      `| ${r.check} | ${r.expected} | ${r.got} | ${r.missing} | ${r.duplicates} | ${ok ? 'ok' : '**VIOLATION**'} | ${r.note ?? ''} |`,
    );
  }
  if (Object.values(left).some((n) => n > 0)) {
    violations++;
    console.log(`\nNot drained within ${DRAIN_S} s: ${JSON.stringify(left)}`);
  }
  await cleanup();
  const orphans = [...pids].filter(processAlive);
  if (orphans.length > 0) {
    violations++;
    console.log(`\nProcesses left running after the cluster stopped: ${orphans.join(', ')}`);
  }
  console.log(violations === 0 ? '\nchaos: every promise held' : `\nchaos: ${violations} violation(s)`);
  return violations === 0 ? 0 : 1;
}

function ms(n: number) {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error);
  await cleanup();
}
process.exit(code);
