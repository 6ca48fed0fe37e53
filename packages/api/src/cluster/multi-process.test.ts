import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createFreshPostgresDatabase } from '@medlocker/db/testing';
import { SimLocker } from '@medlocker/locker-sim';
import pg from 'pg';
import { DEV_ADMIN_PASSWORD } from '../config/config.ts';
import { authPolicy } from '../sessions/policy.ts';
import { type ApiProcess, killAll, spawnApis, stopAll } from './spawn.ts';

/**
 * Several real api processes on one PostgreSQL database (multi-process safety): three start
 * at once on an empty database, then the tests split their calls over them. The last test kills one.
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const describePg = baseUrl ? describe : describe.skip;
if (!baseUrl) console.warn('multi-process tests skipped: TEST_DATABASE_URL is not set');

let apis: ApiProcess[] = [];
let dbUrl = '';
let drop: (() => Promise<void>) | undefined;
let sql: pg.Client;
const admin = 'admin@medlocker.test';

/** Each test speaks from its own client address (TRUST_PROXY=loopback), so address limits do not mix. */
let addressN = 0;
const newAddress = () => `203.0.113.${++addressN}`;

async function post(p: ApiProcess, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${p.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: p.url, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, body: json as Record<string, unknown>, headers: res.headers };
}

async function login(p: ApiProcess, username: string, password: string, address: string) {
  return post(p, '/api/auth/login', { username, password }, { 'x-forwarded-for': address });
}

async function adminCookie(p: ApiProcess): Promise<string> {
  const res = await login(p, admin, DEV_ADMIN_PASSWORD, newAddress());
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie.startsWith('medlocker_session=')) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return cookie;
}

function openSocket(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket; messages: unknown[] }> {
  const ws = new WebSocket(url, { headers } as never);
  const messages: unknown[] = [];
  ws.addEventListener('message', (m) => messages.push(JSON.parse(String(m.data))));
  return new Promise((ok, fail) => {
    ws.addEventListener('open', () => ok({ ws, messages }));
    ws.addEventListener('error', () => fail(new Error(`socket ${url} did not open`)));
  });
}

async function eventually(fn: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!(await fn())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}

describePg('several api processes on one PostgreSQL', () => {
  beforeAll(async () => {
    const fresh = await createFreshPostgresDatabase(baseUrl as string);
    dbUrl = fresh.url;
    drop = fresh.drop;
    sql = new pg.Client({ connectionString: dbUrl });
    await sql.connect();
    // Three at once on an empty database: each migrates and seeds at start.
    apis = await spawnApis(['A', 'B', 'C'], { databaseUrl: dbUrl, env: { TRUST_PROXY: 'loopback', JOBS: 'off' } });
  }, 120_000);

  afterAll(async () => {
    await stopAll(apis).catch(() => killAll());
    await sql?.end().catch(() => {});
    await drop?.();
  }, 30_000);

  it('migrations run once when three processes start together on an empty database, and the demo is seeded once', async () => {
    const { rows } = await sql.query<{ name: string; n: number }>(
      'select name, count(*)::int as n from kysely_migration group by name',
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    const admins = await sql.query<{ n: number }>('select count(*)::int as n from users where email = $1', [admin]);
    expect(admins.rows[0]?.n).toBe(1);
  });

  it('a change made through A reaches a console connected to B (LISTEN/NOTIFY)', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const cookieA = await adminCookie(a);
    const cookieB = await adminCookie(b);
    const { rows } = await sql.query<{ id: string }>(
      'select id from businesses where archived_at is null order by id limit 1',
    );
    const businessId = rows[0]?.id as string;
    const consoleB = await openSocket(`${b.ws}/ws`, { cookie: cookieB, origin: b.url });
    try {
      consoleB.ws.send(JSON.stringify({ action: 'subscribe', params: { businessId } }));
      await eventually(() => consoleB.messages.some((m) => (m as { action: string }).action === 'subscribed'));
      const archived = await post(a, '/api/businesses/archiveBusiness', { id: businessId }, { cookie: cookieA });
      expect(archived.status).toBe(200);
      await eventually(
        () =>
          consoleB.messages.some(
            (m) =>
              (m as { action: string }).action === 'archived' &&
              (m as { params: { businessId: string } }).params.businessId === businessId,
          ),
        5000,
        "B's console got 'archived'",
      );
      expect((await post(a, '/api/businesses/unarchiveBusiness', { id: businessId }, { cookie: cookieA })).status).toBe(
        200,
      );
    } finally {
      consoleB.ws.close();
    }
  });

  it('a session revoked on A is refused by B at once (its cache forgets it through LISTEN/NOTIFY)', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const cookie = await adminCookie(a);
    // B has looked the session up, so it is in B's cache.
    expect((await post(b, '/api/auth/session', {}, { cookie })).status).toBe(200);
    expect((await post(b, '/api/auth/session', {}, { cookie })).status).toBe(200);
    expect((await post(a, '/api/auth/logout', {}, { cookie })).status).toBe(200);
    // Within a NOTIFY's delay (milliseconds), well inside the cache's 5 s lifetime.
    await eventually(
      async () => (await post(b, '/api/auth/session', {}, { cookie })).status === 401,
      1000,
      'B refuses',
    );
  });

  it('the login lockout holds across processes: concurrent wrong passwords split over A, B and C', async () => {
    const username = 'nobody-lockout@medlocker.test';
    const address = newAddress();
    const tries = 15;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) =>
        login(apis[i % apis.length] as ApiProcess, username, 'wrong-password-1', address),
      ),
    );
    const reasons = answers.map((r) => (r.body as { reason?: string }).reason);
    // Only the attempts before the lock are checked; the one that reaches the threshold is told it is locked.
    expect(reasons.filter((r) => r === 'InvalidCredentials').length).toBeLessThanOrEqual(
      authPolicy.lockoutThreshold - 1,
    );
    expect(reasons.filter((r) => r === 'TooManyAttempts').length).toBeGreaterThanOrEqual(
      tries - authPolicy.lockoutThreshold + 1,
    );
    const { rows } = await sql.query<{ n: number }>(
      "select count(*)::int as n from audit_log where action = 'auth.login.failed' and details->>'username' = $1",
      [username],
    );
    expect(rows[0]?.n).toBe(authPolicy.lockoutThreshold);
  });

  it('the per-address failed-login limit holds across processes', async () => {
    const address = newAddress();
    const tries = 45;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) =>
        login(apis[i % apis.length] as ApiProcess, `nobody-${i}@medlocker.test`, 'wrong-password-1', address),
      ),
    );
    const limited = answers.filter((r) => r.status === 429).length;
    // 30 failures per 15 minutes per address (areas/auth/service.ts addressLimits): the rest are refused.
    expect(tries - limited).toBe(30);
  });

  it('the per-address limits on pairing codes and on mail-sending calls hold across processes', async () => {
    const address = newAddress();
    const codes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${(apis[i % apis.length] as ApiProcess).url}/machine/device/code`, {
          method: 'POST',
          headers: { 'x-forwarded-for': address },
        }).then((r) => r.status),
      ),
    );
    // 30 codes per 10 minutes per address (areas/device-auth deviceCodeLimit), whichever process answers.
    expect(codes.filter((s) => s === 200).length).toBe(30);
    expect(codes.filter((s) => s === 429).length).toBe(10);
    const resets = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        post(
          apis[i % apis.length] as ApiProcess,
          '/api/auth/beginResetPassword',
          { email: `someone-${i}@medlocker.test`, frontEnd: 'support' },
          { 'x-forwarded-for': address },
        ),
      ),
    );
    // 10 registration or reset requests an hour per address (areas/auth/service.ts addressLimits.mails).
    expect(resets.filter((r) => r.status === 200).length).toBe(10);
    expect(resets.filter((r) => r.status === 429).length).toBe(5);
  });

  it('orders made concurrently through A, B and C for one machine never share a live PIN or a machine sequence', async () => {
    const cookies = await Promise.all(apis.map((p) => adminCookie(p)));
    const { rows } = await sql.query<{ business_id: string; patient_id: string; machine_id: string }>(
      `select p.business_id, p.id as patient_id, m.id as machine_id
       from patients p join machines m on m.business_id = p.business_id
       where m.archived_at is null order by p.id limit 1`,
    );
    const pick = rows[0];
    if (!pick) throw new Error('the demo has no patient and machine in one business');
    const n = 24;
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(
          apis[i % apis.length] as ApiProcess,
          '/api/orders/create',
          {
            barcode: `MP-${Date.now()}-${i}`,
            businessId: pick.business_id,
            patientId: pick.patient_id,
            machineId: pick.machine_id,
          },
          { cookie: cookies[i % apis.length] as string },
        ),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(Array.from({ length: n }, () => 200));
    const live = await sql.query<{ n: number; pins: number; sequences: number }>(
      `select count(*)::int as n, count(distinct pin_lookup)::int as pins, count(distinct machine_sequence)::int as sequences
       from orders where machine_id = $1 and status in ('new', 'loaded')`,
      [pick.machine_id],
    );
    expect(live.rows[0]?.pins).toBe(live.rows[0]?.n as number);
    const ours = await sql.query<{ sequences: number }>(
      "select count(distinct machine_sequence)::int as sequences from orders where machine_id = $1 and barcode like 'MP-%'",
      [pick.machine_id],
    );
    expect(ours.rows[0]?.sequences).toBe(n);
  });

  it('one Idempotency-Key sent at once to A, B and C has one effect', async () => {
    const [a] = apis as [ApiProcess];
    const cookie = await adminCookie(a);
    const { rows } = await sql.query<{ business_id: string; patient_id: string }>(
      'select business_id, id as patient_id from patients order by id limit 1',
    );
    const pick = rows[0] as { business_id: string; patient_id: string };
    const client = await post(
      a,
      '/api/integration/createOrUpdateIntegrationClient',
      {
        businessId: pick.business_id,
        name: 'Multi-process PMR',
        contactEmail: 'support@pmr.example',
        suppressPatientMessages: true,
        webhookUrl: null,
        rateLimit: 1200,
      },
      { cookie },
    );
    expect(client.status).toBe(200);
    const clientId = (client.body as { client: { id: string } }).client.id;
    const secret = await post(a, '/api/integration/generateClientSecret', { id: clientId }, { cookie });
    const token = await fetch(`${a.url}/integration/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: (secret.body as { secret: string }).secret,
      }).toString(),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const barcode = `IDEM-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        fetch(`${(apis[i % apis.length] as ApiProcess).url}/integration/v1/orders`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token.access_token}`,
            'idempotency-key': `mp-${barcode}`,
          },
          body: JSON.stringify({ patientId: pick.patient_id, barcode }),
        }).then((r) => r.status),
      ),
    );
    // Each is the first answer (201), its replay (201), or "still being answered" (409): never a second order.
    expect(answers.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    expect(answers).toContain(201);
    const made = await sql.query<{ n: number }>('select count(*)::int as n from orders where barcode = $1', [barcode]);
    expect(made.rows[0]?.n).toBe(1);
  });

  it('a locker on A that dies (SIGKILL) reconnects to B and resumes: every event stored once, sequence numbers go on', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const cookie = await adminCookie(b);
    const { rows } = await sql.query<{ id: string }>(
      'select id from businesses where archived_at is null order by id limit 1',
    );
    const made = await post(
      b,
      '/api/testMachines/create',
      { businessId: rows[0]?.id, name: 'Failover locker', numberOfSlots: 12 },
      { cookie },
    );
    expect(made.status).toBe(200);
    const tm = (made.body as { testMachine: { id: string; credentials: Record<string, unknown> } }).testMachine;
    const c = tm.credentials as { accessToken: string; refreshToken: string; accessTokenExpires: number };
    // The locker's server address is what a load balancer would give it: A, then B once A is gone.
    let target = a;
    const options = {
      get api() {
        return target.url;
      },
      index: 1,
      credentials: { machineId: tm.id, ...c },
      readingEverySeconds: 3600,
      batchEverySeconds: 3600,
    };
    const locker = new SimLocker(options);
    try {
      await locker.start();
      await eventually(() => locker.view().status === 'online', 10_000, 'online on A');
      for (let i = 0; i < 5; i++) locker.alarm('EM_0016');
      await eventually(() => locker.view().queued === 0, 10_000, 'first events stored');
      // More events in flight while A dies, some answered, some not.
      for (let i = 0; i < 5; i++) locker.alarm('EM_0016');
      await a.kill('SIGKILL');
      target = b;
      for (let i = 0; i < 5; i++) locker.alarm('EM_0016');
      await eventually(() => locker.view().status === 'online' && locker.view().queued === 0, 20_000, 'resumed on B');
      const stored = await sql.query<{ sequence: number; locker_event_id: string }>(
        'select sequence::int as sequence, locker_event_id from machine_events where machine_id = $1 and locker_event_id is not null order by sequence',
        [tm.id],
      );
      expect(stored.rows.map((r) => r.sequence)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(new Set(stored.rows.map((r) => r.locker_event_id)).size).toBe(15);
      expect(locker.view().seq).toBe(15);
    } finally {
      locker.stop();
    }
  }, 60_000);
});
