/**
 * The end-to-end harness, run by Playwright's `webServer` (see playwright.config.ts) as one Bun
 * process:
 *   1. builds the console and the patient page (unless E2E_SKIP_BUILD=1, e.g. when the caller has just
 *      built them);
 *   2. starts a mail catcher (a real SMTP server on 127.0.0.1);
 *   3. starts the real server on E2E_PORT with a fresh PGlite database in a temporary DATA_DIR,
 *      so the demo seed runs (admin@medlocker.test with DEV_ADMIN_PASSWORD);
 *   4. serves the caught mail on E2E_MAIL_PORT: `GET /__mail?to=<address>&timeoutMs=<ms>` answers
 *      the oldest mail to that address not handed out before, waiting for it to arrive (404 on
 *      timeout); `GET /__mail/all` lists everything; `POST /__jobs/dead?type=<type>&error=<text>` makes a
 *      dead job (one attempt that failed), as no job type fails on purpose in a healthy server;
 *      `GET /__sms?to=<447…>&timeoutMs=<ms>` answers the first SMS a local The SMS Works (the server's
 *      SMSWORKS_API_URL) received for that destination (`&n=2` the second, …), waiting for it (404 on timeout);
 *      `GET /__whatsapp?to=<447…>&timeoutMs=<ms>` answers the oldest message not handed out before that a
 *      local WhatsApp Cloud API (the server's WHATSAPP_API_URL) received for that number, with its text
 *      (the template's body parameter), waiting for it (404 on timeout);
 *      `POST /__stats/month?business=<id>&year=<yyyy>&month=<1-12>` with a JSON body of monthly figures
 *      (core's MonthlyBusinessStats fields; those left out are zeros) stores that month's row of
 *      monthly_business_stats, replacing one already there, as the stats.monthly job would;
 *      `POST /__keypad/wrong?machine=<id>&count=<n>` records n wrong PINs typed at the machine earlier in
 *      the keypad's hour (55 minutes ago on, a minute apart), so a spec reaches the PIN-guessing alert
 *      without sitting through the keypad's waits;
 *      `POST /__accounts/unused?user=<id>&days=<n>` makes a user's account look unused for n days (its
 *      sign-in, creation and enabling moved back) and runs the server's own `accounts.disableInactive`
 *      job, answering once the account is disabled (issue 37 §2);
 *      `POST /__orders/expired?order=<id>&location=<slot>` puts the order's bag in its machine, expired;
 *      `POST /__audit/old?business=<id>&days=<n>&count=<k>` writes k audit entries of the business n days
 *      old, so a spec sees the retention preview count them;
 *      `POST /__alarms/due?machine=<id>&level=<n>` makes the machine's open alarm's escalation to level n due
 *      now (its raising moved back by the wait left), so a spec sees it escalate without waiting the
 *      interval;
 *   5. runs a local webhook receiver (webhook-receiver.ts): `GET /__webhooks/url?name=<n>` its URL for one
 *      endpoint, `POST /__webhooks/answer?name=<n>&status=<code>` what that endpoint answers from now on,
 *      `GET /__webhooks/received?name=<n>` what it got, `POST /__webhooks/give-up?business=<id>` the end of
 *      the retry schedule for the business's failing deliveries (days, skipped); the server may send to
 *      127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1);
 *   6. runs a local Judopay (payments/fake-judopay.ts: its API and the hosted payment page the patient
 *      page sends the browser to), given to the server as JUDOPAY_API_URL and JUDOPAY_LIVE_API_URL; it
 *      accepts harness/judopay.ts's account, which a spec saves as a business's payment settings;
 *   7. runs a local NHS login (testing/identity-providers/nhs-login-idp.mjs: private_key_jwt, RS512,
 *      vtr/vot, nhs_number and birthdate), given to the server as NHS_LOGIN_*; its login is written
 *      `<nhs number>/<birth date>/<vot>`.
 * SIGTERM/SIGINT stop everything and delete the temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { escalationStepKey } from '../../packages/api/src/areas/machines/index.ts';
import { claimJobs, enqueueJob, failJob } from '../../packages/api/src/jobs/repository.ts';
import { startMailCatcher } from '../../packages/api/src/mail/index.ts';
import { startFakeJudopay } from '../../packages/api/src/payments/fake-judopay.ts';
import { startServer } from '../../packages/api/src/server.ts';
import { startNhsLoginIdp } from '../../packages/api/src/testing/identity-providers/nhs-login-idp.ts';
import { storeMonth } from '../../packages/api/src/testing/monthly-stats.ts';
import { e2eJudo, e2eJudoWebhook } from './judopay.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const repo = resolve(import.meta.dir, '../..');
const port = Number(process.env.E2E_PORT ?? 4810);
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 4811);

if (process.env.E2E_SKIP_BUILD !== '1') {
  for (const script of ['packages/console/build.ts', 'packages/patient/build.ts']) {
    const build = Bun.spawnSync([process.execPath, join(repo, script)], {
      cwd: repo,
      stdout: 'inherit',
      stderr: 'inherit',
    });
    if (build.exitCode !== 0) {
      console.error(`e2e harness: ${script} failed`);
      process.exit(1);
    }
  }
}

/** A local The SMS Works: businesses whose smsGateway is thesmsworks send here; the others use the local gateway. */
const smsSeen: Record<string, unknown>[] = [];
const smsWorks = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as Record<string, unknown>;
    const messageid = `sw-e2e-${smsSeen.length + 1}`;
    smsSeen.push({ ...body, messageid });
    return Response.json({ messageid, status: 'SENT' });
  },
});

async function smsTo(url: URL): Promise<Response> {
  const to = url.searchParams.get('to');
  const n = Math.max(1, Number(url.searchParams.get('n') ?? 1) || 1);
  const deadline = Date.now() + Math.min(Number(url.searchParams.get('timeoutMs') ?? 10_000), 60_000);
  while (Date.now() < deadline) {
    const found = smsSeen.filter((m) => m.destination === to)[n - 1];
    if (found) return Response.json(found);
    await Bun.sleep(100);
  }
  return Response.json({ error: `no SMS number ${n} to ${to}` }, { status: 404 });
}

/** A local WhatsApp Cloud API: `POST /v21.0/{phone-number-id}/messages`, answered with a new wamid. */
const whatsAppSeen: { to: string; text: string; wamid: string; body: Record<string, unknown>; handedOut: boolean }[] =
  [];
const whatsApp = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as Record<string, unknown> & {
      template?: { components?: { parameters?: { text?: string }[] }[] };
    };
    const wamid = `wamid.e2e-${whatsAppSeen.length + 1}`;
    const text = body.template?.components?.[0]?.parameters?.[0]?.text ?? '';
    whatsAppSeen.push({ to: String(body.to), text, wamid, body, handedOut: false });
    return Response.json({ messaging_product: 'whatsapp', contacts: [{ wa_id: body.to }], messages: [{ id: wamid }] });
  },
});

async function whatsAppTo(url: URL): Promise<Response> {
  const to = url.searchParams.get('to');
  const deadline = Date.now() + Math.min(Number(url.searchParams.get('timeoutMs') ?? 10_000), 60_000);
  while (Date.now() < deadline) {
    const found = whatsAppSeen.find((m) => m.to === to && !m.handedOut);
    if (found) {
      found.handedOut = true;
      const { handedOut: _handedOut, ...message } = found;
      return Response.json(message);
    }
    await Bun.sleep(100);
  }
  return Response.json({ error: `no WhatsApp message to ${to}` }, { status: 404 });
}

/** A local Judopay (its API and hosted payment page) for the patient page's card payments. */
const judopay = startFakeJudopay([{ token: e2eJudo.token, secret: e2eJudo.secret }]);

/** A local webhook receiver for the delivery console's spec; its endpoints are on 127.0.0.1. */
const webhookReceiver = startWebhookReceiver();

const dataDir = await mkdtemp(join(tmpdir(), 'medlocker-e2e-'));
const catcher = await startMailCatcher();
const publicUrl = `http://127.0.0.1:${port}`;
const nhsLogin = await startNhsLoginIdp(`${publicUrl}/api/auth/nhs-login/callback`);
const server = await startServer({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  NODE_ENV: 'test',
  SMTP_URL: catcher.url,
  // localhost too: a passkey cannot be bound to an IP address (second-factor.e2e.ts signs in there).
  PUBLIC_URL: `${publicUrl},http://localhost:${port}`,
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  // Registration open, so the Register flow runs for real (its absence is checked with a stubbed config).
  ALLOW_REGISTRATION: process.env.E2E_ALLOW_REGISTRATION ?? 'true',
  SEED_ADMIN_EMAIL: '',
  SEED_ADMIN_PASSWORD: '',
  SMSWORKS_JWT: 'JWT e2e',
  SMSWORKS_API_URL: `http://127.0.0.1:${smsWorks.port}`,
  WHATSAPP_TOKEN: 'e2e-whatsapp-token',
  WHATSAPP_PHONE_NUMBER_ID: '100200300',
  WHATSAPP_API_URL: `http://127.0.0.1:${whatsApp.port}/v21.0`,
  // Sandbox and live businesses alike pay on the local Judopay.
  JUDOPAY_API_URL: judopay.url,
  JUDOPAY_LIVE_API_URL: judopay.url,
  JUDOPAY_WEBHOOK_USER: e2eJudoWebhook.user,
  JUDOPAY_WEBHOOK_PASSWORD: e2eJudoWebhook.password,
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
  // The e2e OpenID provider (oidc-provider) listens on http://127.0.0.1.
  SSO_ALLOW_HTTP_LOOPBACK: '1',
  NHS_LOGIN_ISSUER: nhsLogin.issuer,
  NHS_LOGIN_CLIENT_ID: nhsLogin.clientId,
  NHS_LOGIN_PRIVATE_KEY: nhsLogin.privateKeyPem,
});

const mailApi = Bun.serve({
  hostname: '127.0.0.1',
  port: mailPort,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/__mail/all') return Response.json(catcher.messages.map(withoutRaw));
    if (url.pathname === '/__jobs/dead' && request.method === 'POST') return Response.json(await deadJob(url));
    if (url.pathname === '/__stats/month' && request.method === 'POST') return statsMonth(url, request);
    if (url.pathname === '/__keypad/wrong' && request.method === 'POST') return earlierWrongPins(url);
    if (url.pathname === '/__accounts/unused' && request.method === 'POST') return unusedAccount(url);
    if (url.pathname === '/__audit/old' && request.method === 'POST') return oldAuditEntries(url);
    if (url.pathname === '/__orders/expired' && request.method === 'POST') return expiredInLocker(url);
    if (url.pathname === '/__alarms/due' && request.method === 'POST') return alarmDue(url);
    if (url.pathname === '/__sms') return smsTo(url);
    if (url.pathname === '/__whatsapp') return whatsAppTo(url);
    if (url.pathname.startsWith('/__webhooks/')) {
      return (await webhookReceiver.route(url, request, server.db)) ?? new Response('not found', { status: 404 });
    }
    if (url.pathname !== '/__mail') return new Response('not found', { status: 404 });
    const to = url.searchParams.get('to')?.toLowerCase();
    if (!to) return Response.json({ error: 'to is required' }, { status: 400 });
    const timeoutMs = Math.min(Number(url.searchParams.get('timeoutMs') ?? 10_000), 60_000);
    try {
      return Response.json(withoutRaw(await catcher.waitFor(to, timeoutMs)));
    } catch {
      return Response.json({ error: `no mail to ${to} within ${timeoutMs} ms` }, { status: 404 });
    }
  },
});

/** A month of figures for a business, stored as the monthly job would (see the header). */
async function statsMonth(url: URL, request: Request) {
  const businessId = url.searchParams.get('business') ?? '';
  const year = Number(url.searchParams.get('year'));
  const month = Number(url.searchParams.get('month'));
  if (!businessId || !Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    return Response.json({ error: 'business, year and month (1-12) are required' }, { status: 400 });
  }
  const figures = (await request.json()) as Record<string, unknown>;
  await storeMonth(server.db, { ...figures, businessId, year, month });
  return Response.json({ stored: { businessId, year, month } });
}

/**
 * Wrong PINs typed at a machine earlier in the keypad's hour, a minute apart and long enough ago that no
 * wait is left: the next wrong PIN a simulated locker types counts after them (the keypad's doubling
 * waits would otherwise hold a spec for minutes).
 */
async function earlierWrongPins(url: URL) {
  const machineId = url.searchParams.get('machine') ?? '';
  const count = Number(url.searchParams.get('count'));
  const machine = await server.db
    .selectFrom('machines')
    .select('business_id')
    .where('id', '=', machineId)
    .executeTakeFirst();
  if (!machine || !Number.isInteger(count) || count < 1 || count > 50) {
    return Response.json({ error: 'machine (an existing id) and count (1-50) are required' }, { status: 400 });
  }
  const start = Date.now() - 55 * 60_000;
  await server.db
    .insertInto('pin_attempts')
    .values(
      Array.from({ length: count }, (_, i) => ({
        id: Bun.randomUUIDv7(),
        business_id: machine.business_id,
        machine_id: machineId,
        order_id: null,
        outcome: 'wrong',
        created: start + i * 60_000,
      })),
    )
    .execute();
  return Response.json({ inserted: count });
}

/**
 * An account nobody has used for `days` days, then the server's nightly job run now (queued for its job
 * runner, as the schedule would): answers when the account is disabled, or 504 after 20 s.
 */
async function unusedAccount(url: URL) {
  const userId = url.searchParams.get('user') ?? '';
  const days = Number(url.searchParams.get('days') ?? '91');
  const then = Date.now() - days * 24 * 60 * 60_000;
  const moved = await server.db
    .updateTable('users')
    .set({ last_sign_in: then, created: then, enabled_at: null })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return Response.json({ error: 'no such user' }, { status: 400 });
  await enqueueJob(server.db, { type: 'accounts.disableInactive', payload: {} }, Date.now());
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const row = await server.db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    if (row?.disabled_at != null) return Response.json({ disabledAt: row.disabled_at });
    await Bun.sleep(100);
  }
  return Response.json({ error: 'the account was not disabled within 20 s' }, { status: 504 });
}

/** Audit entries of a business as old as asked (inserts are what audit_log allows). */
async function oldAuditEntries(url: URL) {
  const businessId = url.searchParams.get('business') ?? '';
  const at = Date.now() - Number(url.searchParams.get('days') ?? '3000') * 24 * 60 * 60_000;
  const count = Math.min(Number(url.searchParams.get('count') ?? '1'), 100);
  for (let i = 0; i < count; i++) {
    await server.db
      .insertInto('audit_log')
      .values({
        id: Bun.randomUUIDv7(),
        at: at - i,
        action: 'e2e.old',
        entity_type: 'business',
        entity_id: businessId,
        business_id: businessId,
        details: '{}',
      })
      .execute();
  }
  return Response.json({ inserted: count });
}

/**
 * Puts an order's bag in its machine at slot `location`, loaded and already past its collection window
 * (a day ago), as if a locker had loaded it days earlier: a bag to remove.
 */
async function expiredInLocker(url: URL) {
  const orderId = url.searchParams.get('order') ?? '';
  const now = Date.now();
  const order = await server.db
    .updateTable('orders')
    .set({ status: 'loaded', expires_at: now - 86_400_000, updated: now })
    .where('id', '=', orderId)
    .returning(['business_id', 'barcode', 'machine_id'])
    .executeTakeFirstOrThrow();
  await server.db
    .insertInto('bags')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: order.business_id,
      barcode: order.barcode,
      location: url.searchParams.get('location') ?? 'A1',
      machine_id: order.machine_id,
      order_id: orderId,
      created: now,
      updated: now,
    })
    .execute();
  return Response.json({ ok: true });
}

/**
 * Makes the machine's open alarm's escalation to `level` due now, as if the business's interval had
 * passed: the raising and the step move back by the wait left, and the queued step runs at the runner's
 * next look (within a second). An alarm already at that level is left as it is (the step came on its
 * own); any other state is refused, so a spec never jumps a level.
 */
async function alarmDue(url: URL) {
  const machineId = url.searchParams.get('machine') ?? '';
  const level = Number(url.searchParams.get('level') ?? '1');
  if (!Number.isInteger(level) || level < 1) return Response.json({ error: 'level is 1 or more' }, { status: 400 });
  const alarm = await server.db
    .selectFrom('alarms')
    .select(['id', 'raised_at', 'next_escalation_at', 'escalation_level'])
    .where('machine_id', '=', machineId)
    .where('state', '=', 'open')
    .executeTakeFirst();
  if (!alarm) return Response.json({ error: 'the machine has no open alarm' }, { status: 400 });
  if (alarm.escalation_level >= level) return Response.json({ alarmId: alarm.id, movedMs: 0 });
  if (alarm.escalation_level !== level - 1 || alarm.next_escalation_at === null) {
    return Response.json({ error: `the alarm is not waiting to escalate to level ${level}` }, { status: 400 });
  }
  const now = Date.now();
  const early = Math.max(0, Number(alarm.next_escalation_at) - now);
  const key = escalationStepKey(alarm.id, level);
  const moved = await server.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('alarms')
      .set({ raised_at: Number(alarm.raised_at) - early, next_escalation_at: now })
      .where('id', '=', alarm.id)
      .execute();
    return tx
      .updateTable('jobs')
      .set({ run_after: now })
      .where('dedupe_key', '=', key)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
  });
  // None waiting: the runner took the step already (it was due), or none was ever queued.
  if (Number(moved.numUpdatedRows) !== 1) {
    const taken = await server.db.selectFrom('jobs').select('status').where('dedupe_key', '=', key).executeTakeFirst();
    if (!taken) return Response.json({ error: `no escalation to level ${level} is queued` }, { status: 400 });
  }
  return Response.json({ alarmId: alarm.id, movedMs: early });
}

/** A job of a type no handler takes, taken once and failed for good by worker `e2e`. */
async function deadJob(url: URL) {
  const type = url.searchParams.get('type') ?? 'e2e.fails';
  const now = Date.now();
  const id = await enqueueJob<Record<string, unknown>>(server.db, { type, payload: {}, maxAttempts: 1 }, now);
  const [job] = await claimJobs(server.db, { types: [type], worker: 'e2e', now, leaseMs: 60_000, limit: 1 });
  if (!job || job.id !== id) throw new Error('the e2e job was not the one claimed');
  const error = url.searchParams.get('error') ?? 'failed on purpose';
  await failJob(server.db, { id: job.id, worker: 'e2e', now, error, retryAt: null });
  return { id };
}

function withoutRaw<T extends { raw: string }>(mail: T): Omit<T, 'raw'> {
  const { raw: _raw, ...rest } = mail;
  return rest;
}

console.log(`e2e harness: app ${publicUrl}, mail http://127.0.0.1:${mailPort}/__mail, data ${dataDir}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  mailApi.stop(true);
  smsWorks.stop(true);
  whatsApp.stop(true);
  judopay.stop();
  nhsLogin.stop();
  webhookReceiver.stop();
  // Playwright waits 5 s before killing: the server gets 3 s to close, so the data is always removed.
  await Promise.race([Promise.all([server.stop(), catcher.stop()]).catch(() => {}), Bun.sleep(3000)]);
  await rm(dataDir, { recursive: true, force: true }).catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
