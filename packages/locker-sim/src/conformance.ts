import { callFrame, type Frame, parseFrame } from '@medlocker/core';

/**
 * Conformance mode (`locker-sim conformance --url URL`): runs every exchange docs/LOCKER-PROTOCOL.md
 * documents against a server, as a locker written from the document would, and reports each as a
 * check that passed or failed. Pairing needs a member of staff: a support session token, or an email
 * and password it signs in with. It creates one machine (in the given business, or the first listed)
 * and archives it at the end.
 */
export type ConformanceOptions = {
  url: string;
  /** A support session token (Bearer), or… */
  token?: string;
  /** …a support user's email and password to sign in with. */
  email?: string;
  password?: string;
  /** The business the conformance machine is created in (default: the first active one). */
  business?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
};

export type Check = { section: string; name: string; ok: boolean; detail?: string };

class Failed extends Error {}

/** A JSON answer read loosely: a check says what it expected when a field is missing. */
// biome-ignore lint/suspicious/noExplicitAny: answers of a server under test, checked field by field.
type Body = Record<string, any>;

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A locker connection for the checks: calls with answers, hub calls recorded, the close code. */
class Wire {
  private readonly ws: WebSocket;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  readonly hubCalls: Frame[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;
  protocol = '';
  private n = 0;

  constructor(wsUrl: string, token: string) {
    this.ws = new WebSocket(`${wsUrl}/machine`, {
      headers: { authorization: `Bearer ${token}` },
      protocols: ['medlocker.locker.v1'],
    } as never);
    this.closed = new Promise((resolve) => this.ws.addEventListener('close', (e) => resolve(e.code)));
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => {
        this.protocol = this.ws.protocol;
        resolve();
      });
      this.ws.addEventListener('close', (e) => reject(new Failed(`connection closed (${e.code})`)));
    });
    this.ws.addEventListener('message', (m) => {
      const parsed = parseFrame(String(m.data));
      const frame = parsed.ok ? parsed.frame : parsed.error;
      if (frame[0] === 2) {
        this.hubCalls.push(frame);
        this.ws.send(JSON.stringify([3, frame[1], { status: 'Accepted' }]));
        return;
      }
      this.waiting.get(frame[1])?.(frame);
      this.waiting.delete(frame[1]);
    });
  }

  private answer(id: string): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Failed(`no answer to call ${id} within 30 s`)), 30_000);
      this.waiting.set(id, (f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  }

  call(action: string, payload: Record<string, unknown>): Promise<Frame> {
    const id = String(++this.n);
    const answer = this.answer(id);
    this.ws.send(JSON.stringify(callFrame(id, action, payload)));
    return answer;
  }

  raw(text: string, id = '-1'): Promise<Frame> {
    const answer = this.answer(id);
    this.ws.send(text);
    return answer;
  }

  async hubCall(action: string, timeoutMs = 5000): Promise<Frame> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = this.hubCalls.find((f) => f[2] === action);
      if (found) return found;
      await Bun.sleep(20);
    }
    throw new Failed(`the hub did not call ${action}`);
  }

  close() {
    this.ws.close();
  }
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, Bun.sleep(ms).then(() => Promise.reject(new Failed(`${what}: nothing within ${ms} ms`)))]);

/** A valid NHS number that no real patient has (the 999 test range), drawn at random. */
function testNhsNumber(): string {
  for (;;) {
    const nine = `999${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
    let sum = 0;
    for (let k = 0; k < 9; k++) sum += Number(nine[k]) * (10 - k);
    const check = 11 - (sum % 11);
    if (check !== 10) return nine + (check === 11 ? '0' : String(check));
  }
}

function expectEqual(actual: unknown, expected: unknown, what: string) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Failed(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function expectTrue(ok: unknown, what: string) {
  if (!ok) throw new Failed(what);
}

export async function runConformance(o: ConformanceOptions): Promise<Check[]> {
  const base = o.url.replace(/\/$/, '');
  const wsUrl = base.replace(/^http/, 'ws');
  const log = o.log ?? (() => {});
  const checks: Check[] = [];
  let section = '';
  let stop = false;

  /** Runs one check; a failure is recorded (with why) and, when `essential`, ends the run. */
  async function check(name: string, body: () => Promise<void>, essential = false): Promise<boolean> {
    if (stop) {
      checks.push({ section, name, ok: false, detail: 'not run: an earlier essential check failed' });
      return false;
    }
    try {
      await body();
      checks.push({ section, name, ok: true });
      log(`pass  ${section} · ${name}`);
      return true;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      checks.push({ section, name, ok: false, detail });
      log(`FAIL  ${section} · ${name}: ${detail}`);
      if (essential) stop = true;
      return false;
    }
  }

  const form = (path: string, body: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    }).then(async (res) => ({ status: res.status, body: (await res.json().catch(() => null)) as Body }));
  let staffToken = o.token;
  const rpc = async (area: string, method: string, input: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, authorization: `Bearer ${staffToken}` },
      body: JSON.stringify(input),
    });
    const body = (await res.json().catch(() => null)) as Body;
    if (!res.ok) throw new Failed(`${area}/${method}: ${res.status} ${JSON.stringify(body?.error ?? body)}`);
    return body;
  };
  const upgrade = async (token?: string) => {
    const res = await fetch(`${base}/machine`, {
      headers: {
        upgrade: 'websocket',
        connection: 'upgrade',
        'sec-websocket-version': '13',
        'sec-websocket-key': btoa(
          crypto.getRandomValues(new Uint8Array(16)).reduce((s, b) => s + String.fromCharCode(b), ''),
        ),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };

  let machineId = '';
  let tokens = { access: '', refresh: '' };
  let offset = 0;
  const clock = () => Date.now() + offset;
  let seq = 0;
  const event = (extra: Record<string, unknown>) => ({
    eventId: crypto.randomUUID(),
    seq: ++seq,
    created: clock(),
    ...extra,
  });

  let businessId = '';
  section = 'staff';
  await check(
    'signs in and finds a business for the conformance machine',
    async () => {
      if (!staffToken) {
        if (!o.email || !o.password) throw new Failed('give --token, or --email and --password, of a support user');
        const res = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({ username: o.email, password: o.password }),
        });
        const cookie = res.headers.getSetCookie().find((c) => c.startsWith('medlocker_session='));
        staffToken = cookie ? decodeURIComponent(cookie.split(';')[0]?.slice('medlocker_session='.length) ?? '') : '';
        if (!staffToken) throw new Failed(`sign-in refused (${res.status})`);
      }
      businessId = o.business ?? '';
      if (!businessId) {
        const list = await rpc('businesses', 'listBusinesses', {});
        businessId = list.items?.[0]?.id ?? list.businesses?.[0]?.id;
        if (!businessId) throw new Failed('no active business: give --business');
      }
      const created = await rpc('machines', 'createMachine', {
        businessId,
        name: `Conformance ${new Date().toISOString()}`,
        numberOfSlots: 4,
      });
      machineId = created.machine.id;
    },
    true,
  );

  section = '2 pairing';
  await check('2.1 a device code with an 8-letter user code, 600 s and a 5 s interval', async () => {
    const res = await form('/machine/device/code', {});
    expectEqual(res.status, 200, 'status');
    expectTrue(/^[BCDFGHJKMNPQRTVWXZ]{8}$/.test(res.body.user_code), `user_code ${res.body.user_code}`);
    expectEqual([res.body.expires_in, res.body.interval], [600, 5], 'expires_in, interval');
    expectTrue(typeof res.body.device_code === 'string' && res.body.device_code.length >= 32, 'device_code');
  });
  await check('2.3 authorization_pending, then slow_down for a poll that comes too soon', async () => {
    const code = await form('/machine/device/code', {});
    const poll = () => form('/machine/token', { grant_type: DEVICE_GRANT, device_code: code.body.device_code });
    const first = await poll();
    expectEqual([first.status, first.body.error], [400, 'authorization_pending'], 'first poll');
    const second = await poll();
    expectEqual([second.status, second.body.error], [400, 'slow_down'], 'an immediate second poll');
  });
  await check('2.3 invalid_grant, unsupported_grant_type, invalid_request', async () => {
    expectEqual(
      (await form('/machine/token', { grant_type: DEVICE_GRANT, device_code: 'nope' })).body.error,
      'invalid_grant',
      'unknown code',
    );
    expectEqual(
      (await form('/machine/token', { grant_type: 'password' })).body.error,
      'unsupported_grant_type',
      'grant',
    );
    expectEqual((await form('/machine/token', { grant_type: DEVICE_GRANT })).body.error, 'invalid_request', 'no code');
  });
  await check(
    '2.2–2.3 staff enter the code; the next poll gets the tokens',
    async () => {
      const code = await form('/machine/device/code', {});
      await rpc('auth', 'activateDeviceAuth', {
        machineId,
        userCode: `${code.body.user_code.slice(0, 4)}-${code.body.user_code.slice(4)}`.toLowerCase(),
      });
      const res = await form('/machine/token', { grant_type: DEVICE_GRANT, device_code: code.body.device_code });
      expectEqual(res.status, 200, `status (${JSON.stringify(res.body)})`);
      expectEqual([res.body.token_type, res.body.machine_id], ['Bearer', machineId], 'token_type, machine_id');
      tokens = { access: res.body.access_token, refresh: res.body.refresh_token };
      const again = await form('/machine/token', { grant_type: DEVICE_GRANT, device_code: code.body.device_code });
      expectEqual(again.body.error, 'invalid_grant', 'the used device code');
    },
    true,
  );

  section = '3 connecting';
  await check('401 bodies: no token, an invalid token', async () => {
    const none = await upgrade();
    expectEqual(
      [none.status, none.body],
      [401, { error: { code: 'UNAUTHENTICATED', message: 'A locker connects with its access token' } }],
      'no token',
    );
    const bad = await upgrade('x'.repeat(43));
    expectEqual(
      [bad.status, bad.body],
      [401, { error: { code: 'UNAUTHENTICATED', message: 'Invalid access token' } }],
      'invalid token',
    );
  });
  let wire!: Wire;
  await check(
    'upgrades with the Bearer token and answers the subprotocol',
    async () => {
      wire = new Wire(wsUrl, tokens.access);
      await within(wire.opened, 5000, 'connect');
      expectEqual(wire.protocol, 'medlocker.locker.v1', 'subprotocol');
    },
    true,
  );

  section = '4–8 frames and errors';
  await check('a call before BootNotification is ProtocolError', async () => {
    expectEqual((await wire.call('Heartbeat', {})).slice(2, 3), ['ProtocolError'], 'answer');
  });
  await check(
    '5 BootNotification is Accepted with the hub clock, interval and lastSeq 0',
    async () => {
      const boot = await wire.call('BootNotification', {
        vendor: 'Conformance',
        model: 'C1',
        firmwareVersion: '1',
        lastSeq: 0,
      });
      expectEqual(boot[0], 3, `result (${JSON.stringify(boot)})`);
      const r = boot[2] as Body;
      expectEqual([r.status, r.machineId, r.lastSeq, r.outOfOrder], ['Accepted', machineId, 0, false], 'result');
      expectTrue(Number.isInteger(r.heartbeatInterval) && r.heartbeatInterval >= 1, 'heartbeatInterval');
      offset = r.currentTime - Date.now();
    },
    true,
  );
  await check('Heartbeat answers currentTime', async () => {
    const r = (await wire.call('Heartbeat', {}))[2] as Record<string, unknown>;
    expectTrue(typeof r.currentTime === 'number', `result ${JSON.stringify(r)}`);
  });
  await check('StatusNotification answers {}', async () => {
    const r = await wire.call('StatusNotification', { observations: { doorOpen: false, slotsFree: 4, slotsTotal: 4 } });
    expectEqual([r[0], r[2]], [3, {}], 'answer');
  });
  await check('a frame without a readable id: FormationViolation with id "-1"', async () => {
    expectEqual((await wire.raw('{not json')).slice(0, 3), [4, '-1', 'FormationViolation'], 'answer');
  });
  await check('an unknown action: NotImplemented', async () => {
    expectEqual((await wire.call('Teleport', {}))[2], 'NotImplemented', 'code');
  });
  await check('a payload against its schema: TypeConstraintViolation', async () => {
    expectEqual(
      (await wire.call('MachineEvent', { eventId: 'x', seq: 'one', created: clock(), code: 'EM_0001' }))[2],
      'TypeConstraintViolation',
      'code',
    );
  });
  await check('text holding NUL: FormationViolation', async () => {
    const answer = await wire.raw(`[2,"nul","StatusNotification",{"observations":{"a":"\\u0000"}}]`, 'nul');
    expectEqual(answer.slice(0, 3), [4, 'nul', 'FormationViolation'], 'answer');
  });
  await check('another machine named in the payload: SecurityError', async () => {
    expectEqual((await wire.call('Heartbeat', { machineId: 'someone-else' }))[2], 'SecurityError', 'code');
  });
  await check('VerifyPin of a PIN no order has: Invalid', async () => {
    expectEqual((await wire.call('VerifyPin', { pin: '1234' }))[2], { status: 'Invalid' }, 'result');
  });

  section = '6 data events';
  const barcode = `CONF-${Date.now()}`;
  const loaded = event({ barcode, location: 'A1' });
  let loadedResult: unknown;
  await check('TemperatureReadings answers stored', async () => {
    const now = clock();
    const r = await wire.call(
      'TemperatureReadings',
      event({
        readings: [
          { created: now - 20_000, value: 20.5 },
          { created: now - 10_000, value: 20.7 },
        ],
      }),
    );
    expectEqual(r[2], { stored: 2 }, 'result');
  });
  await check('readings ahead of the hub clock: TypeConstraintViolation with currentTime', async () => {
    const r = await wire.call(
      'TemperatureReadings',
      event({ readings: [{ created: clock() + 60 * 60_000, value: 20 }] }),
    );
    expectEqual(r[2], 'TypeConstraintViolation', 'code');
    expectTrue(typeof (r[4] as Record<string, unknown>)?.currentTime === 'number', 'details.currentTime');
  });
  await check('MachineEvent (EM_0003, an alarm) answers the stored id', async () => {
    const r = await wire.call('MachineEvent', event({ code: 'EM_0003', data: { batteryPercent: 96 } }));
    expectTrue(r[0] === 3 && typeof (r[2] as Record<string, unknown>).id === 'string', `answer ${JSON.stringify(r)}`);
  });
  await check('BagLoaded, BagRemoved, BagCollected', async () => {
    const r = await wire.call('BagLoaded', loaded);
    expectTrue(
      r[0] === 3 && typeof (r[2] as Record<string, unknown>).bagId === 'string',
      `BagLoaded ${JSON.stringify(r)}`,
    );
    loadedResult = r[2];
    const removed = await wire.call('BagRemoved', event({ barcode: 'NOT-HERE', reason: 'staff' }));
    expectEqual(removed[2], { bagId: null }, 'BagRemoved of an unknown bag');
    const collected = await wire.call('BagCollected', event({ barcode, location: 'A1' }));
    expectEqual(
      (collected[2] as Record<string, unknown>).bagId,
      (loadedResult as Record<string, unknown>).bagId,
      'BagCollected',
    );
  });

  section = '6 collecting an order';
  await check('BagLoaded binds an order; its PIN opens its slot; BagCollected collects it', async () => {
    const listed = await rpc('patients', 'list', { businessId, onlyCurrent: true });
    const patientId =
      listed.patients?.[0]?.id ??
      (
        await rpc('patients', 'create', {
          businessId,
          patient: {
            displayId: testNhsNumber(),
            name: { given: 'Conformance', family: 'Patient' },
            mobileNumber: '07700 900999',
          },
        })
      ).patient.id;
    const orderBarcode = `CONF-ORDER-${Date.now()}`;
    const created = await rpc('orders', 'create', { businessId, patientId, barcode: orderBarcode });
    const orderId = created.order.id;
    const bound = await wire.call('BagLoaded', event({ barcode: orderBarcode, location: 'B2' }));
    expectEqual((bound[2] as Record<string, unknown>).orderId, orderId, 'BagLoaded orderId');
    const { pin } = await rpc('orders', 'setRevealPinReason', { id: orderId, reason: 'locker conformance run' });
    const wrong = pin === '00000000' ? '00000001' : '00000000';
    expectEqual((await wire.call('VerifyPin', { pin: wrong }))[2], { status: 'Invalid' }, 'a wrong PIN');
    const accepted = (await wire.call('VerifyPin', { pin }))[2] as Record<string, unknown>;
    expectEqual([accepted.status, accepted.location, accepted.barcode], ['Accepted', 'B2', orderBarcode], 'the PIN');
    const taken = await wire.call('BagCollected', event({ barcode: orderBarcode, location: 'B2' }));
    expectEqual((taken[2] as Record<string, unknown>).orderId, orderId, 'BagCollected orderId');
    expectEqual((await rpc('orders', 'get', { id: orderId })).order.status, 'collected', 'the order');
    expectEqual((await wire.call('VerifyPin', { pin }))[2], { status: 'Invalid' }, 'the PIN after collection');
  });

  section = '9 offline replay';
  await check('after a reconnect, lastSeq is the highest stored; a replayed event gets its first answer', async () => {
    wire.close();
    await within(wire.closed, 5000, 'close');
    wire = new Wire(wsUrl, tokens.access);
    await within(wire.opened, 5000, 'reconnect');
    const boot = await wire.call('BootNotification', {
      vendor: 'Conformance',
      model: 'C1',
      firmwareVersion: '1',
      lastSeq: seq,
    });
    expectEqual((boot[2] as Record<string, unknown>).lastSeq, seq, 'lastSeq');
    // The queue, oldest first, with events the hub has already stored.
    expectEqual((await wire.call('BagLoaded', loaded))[2], loadedResult, 'the replayed BagLoaded');
    const fresh = event({ code: 'EM_0017' });
    const first = await wire.call('MachineEvent', fresh);
    const again = await wire.call('MachineEvent', fresh);
    expectEqual(again[2], first[2], 'a duplicate in the same queue');
  });

  section = '7 hub calls';
  await check('SetOutOfOrder reaches the connected locker and lockerNotified is true', async () => {
    const res = await rpc('machines', 'toggleOutOfOrderStatus', { id: machineId });
    expectEqual(res.lockerNotified, true, 'lockerNotified');
    const call = await wire.hubCall('SetOutOfOrder');
    expectEqual((call[3] as Record<string, unknown>).outOfOrder, true, 'payload');
    await rpc('machines', 'toggleOutOfOrderStatus', { id: machineId });
  });

  section = '2.4 refresh';
  await check(
    'a refresh rotates the tokens, closes the old connection (4004) and spends the old refresh token',
    async () => {
      const res = await form('/machine/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh });
      expectEqual(res.status, 200, `status (${JSON.stringify(res.body)})`);
      const old = tokens;
      tokens = { access: res.body.access_token, refresh: res.body.refresh_token };
      expectEqual(await within(wire.closed, 5000, 'old connection'), 4004, 'close code');
      expectEqual(
        (await form('/machine/token', { grant_type: 'refresh_token', refresh_token: old.refresh })).body.error,
        'invalid_grant',
        'the old refresh token',
      );
      expectEqual((await upgrade(old.access)).status, 401, 'the old access token');
      wire = new Wire(wsUrl, tokens.access);
      await within(wire.opened, 5000, 'reconnect with the new token');
      expectEqual(
        (await wire.call('BootNotification', { vendor: 'Conformance', model: 'C1', firmwareVersion: '1' }))[0],
        3,
        'boot',
      );
    },
  );

  section = '2.5 archiving';
  await check('archiving closes the connection with 4001; the tokens stop working', async () => {
    await rpc('machines', 'toggleArchive', { id: machineId });
    expectEqual(await within(wire.closed, 5000, 'connection'), 4001, 'close code');
    expectEqual((await upgrade(tokens.access)).status, 401, 'connect');
    expectEqual(
      (await form('/machine/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh })).body.error,
      'invalid_grant',
      'refresh',
    );
  });
  return checks;
}

/** The pass/fail table. */
export function formatTable(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.section.length + c.name.length + 3));
  const lines = checks.map((c) => {
    const label = `${c.section} · ${c.name}`.padEnd(width);
    return `${c.ok ? 'pass' : 'FAIL'}  ${label}${c.ok ? '' : `  ${c.detail ?? ''}`}`;
  });
  const failed = checks.filter((c) => !c.ok).length;
  lines.push('', failed === 0 ? `all ${checks.length} checks passed` : `${failed} of ${checks.length} checks failed`);
  return lines.join('\n');
}
