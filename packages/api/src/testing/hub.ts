import { callFrame, type Frame, parseFrame } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import { createApp, type HubOptions } from '../app.ts';
import type { AuthPort, Principal } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import type { MachineHubOptions } from '../hubs/machine/index.ts';
import type { TestApi } from './api.ts';

/** Test sign-in: cookie `session=support` is a support user, `session=pharmacy` a user without the scope. */
export const SUPPORT: Principal = {
  userId: 'u-support',
  sessionId: 's1',
  email: 'sam@medlocker.test',
  displayName: 'Sam Support',
  scopes: ['support'],
};
const PHARMACY: Principal = { ...SUPPORT, userId: 'u-pharm', displayName: 'Pat Pharmacy', scopes: [] };

export const testAuth: AuthPort = {
  principalOf: async (request) => {
    const cookie = request.headers.get('cookie') ?? '';
    if (cookie.includes('session=support')) return SUPPORT;
    if (cookie.includes('session=pharmacy')) return PHARMACY;
    return null;
  },
};
export const withTestAuth = (): Partial<AppDeps> => ({ auth: testAuth });
export const asSupport = { cookie: 'session=support' };

export async function seedBusiness(
  db: Kysely<Database>,
  id = 'b1',
  extra: { mobiles?: string[]; emails?: string[]; name?: string } = {},
): Promise<string> {
  await db
    .insertInto('businesses')
    .values({
      id,
      name: extra.name ?? `Pharmacy ${id}`,
      email: null,
      address_line1: null,
      address_line2: null,
      address_line3: null,
      post_town: null,
      postcode: null,
      group_id: null,
      keyholders_mobile_numbers: extra.mobiles ?? [],
      notification_emails: extra.emails ?? [],
      archived_at: null,
      archived_by_id: null,
      archived_by_display: null,
      logo_path: null,
      logo_background_color: null,
      created: 1,
      updated: 1,
    })
    .execute();
  return id;
}

/** Makes data-changing locker events (BagLoaded, MachineEvent…): each with the next eventId and seq, at the test's now. */
export function lockerEvents(t: TestApi) {
  let n = 0;
  return (fields: Record<string, unknown>) => ({ eventId: `ev-${++n}`, seq: n, created: t.deps.now(), ...fields });
}

/** A test machine (paired at once) through the API: its id and access token. */
export async function testMachine(t: TestApi, businessId = 'b1', name = 'Locker 1') {
  const res = await t.call('testMachines', 'create', { businessId, name, numberOfSlots: 12 }, asSupport);
  if (res.status !== 200) throw new Error(`create test machine: ${res.status} ${JSON.stringify(res.body)}`);
  const tm = res.body.testMachine;
  return { id: tm.id, token: tm.credentials.accessToken, refreshToken: tm.credentials.refreshToken };
}

/** Makes a test machine one of its business's real machines: its alarms then reach the business's people. */
export async function makeReal(t: TestApi, machineId: string): Promise<void> {
  await t.db.updateTable('machines').set({ is_test: false }).where('id', '=', machineId).execute();
}

/** The test sign-in's support user (`SUPPORT`) as a user: a test machine it adds tells it of its alarms. */
export async function seedSupportUser(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: SUPPORT.userId,
      email: SUPPORT.email,
      email_normalised: SUPPORT.email,
      password_hash: null,
      identity_provider_id: null,
      front_end: 'support',
      created: 0,
      updated: 0,
    })
    .execute();
}

export const fastHub: MachineHubOptions = {
  heartbeatIntervalSeconds: 60,
  sweepEveryMs: 0,
  batch: { maxReadings: 2000, recomputeEveryMs: 0 },
};

/** The app listening on a random loopback port; stop it at the end of the test. */
export function listen(t: TestApi, options: HubOptions = fastHub) {
  const app = createApp(t.deps, options).listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server?.port;
  return { app, url: `ws://127.0.0.1:${port}`, http: `http://127.0.0.1:${port}`, stop: () => app.stop(true) };
}

/**
 * Runs `body` with a test machine of business b1 whose locker is connected to a hub of its own and
 * booted; closes both afterwards, whatever `body` does.
 */
export async function withBootedLocker(
  t: TestApi,
  body: (s: {
    locker: TestLocker;
    machine: { id: string; token: string };
    hub: ReturnType<typeof listen>;
  }) => Promise<void>,
  options: MachineHubOptions = fastHub,
): Promise<void> {
  await seedBusiness(t.db);
  const machine = await testMachine(t);
  const hub = listen(t, options);
  let locker: TestLocker | undefined;
  try {
    locker = await TestLocker.connect(hub.url, machine.token);
    await locker.boot();
    await body({ locker, machine, hub });
  } finally {
    locker?.close();
    hub.stop();
  }
}

/** A minimal locker for tests: connects, sends calls, awaits their answers, records hub calls. */
export class TestLocker {
  private ws!: WebSocket;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  readonly received: Frame[] = [];
  readonly hubCalls: Frame[] = [];
  private n = 0;
  /** Answer the hub's calls automatically. */
  autoAnswer = true;
  /** The result payload of a hub call answered automatically (default `{ status: 'Accepted' }`); null: an error frame. */
  reply: (action: string, payload: unknown) => Record<string, unknown> | null = () => ({ status: 'Accepted' });
  /** The close code once the connection has closed, from either side. */
  closed!: Promise<number>;

  static async connect(url: string, token: string, how: 'header' | 'subprotocol' = 'header'): Promise<TestLocker> {
    const locker = new TestLocker();
    await locker.open(url, token, how);
    return locker;
  }

  open(url: string, token: string, how: 'header' | 'subprotocol'): Promise<void> {
    this.ws =
      how === 'header'
        ? new WebSocket(`${url}/machine`, { headers: { authorization: `Bearer ${token}` } } as never)
        : new WebSocket(`${url}/machine`, ['medlocker.locker.v1', `bearer.${token}`]);
    this.closed = new Promise((resolve) => this.ws.addEventListener('close', (e) => resolve(e.code)));
    this.ws.onmessage = (m) => {
      const parsed = parseFrame(String(m.data));
      if (!parsed.ok) return;
      const frame = parsed.frame;
      this.received.push(frame);
      if (frame[0] === 2) {
        this.hubCalls.push(frame);
        if (!this.autoAnswer) return;
        const result = this.reply(frame[2], frame[3]);
        this.ws.send(
          JSON.stringify(
            result ? [3, frame[1], result] : [4, frame[1], 'NotImplemented', `Unknown action ${frame[2]}`, {}],
          ),
        );
        return;
      }
      this.waiting.get(frame[1])?.(frame);
      this.waiting.delete(frame[1]);
    };
    return new Promise((resolve, reject) => {
      this.ws.onopen = () => resolve();
      this.ws.onerror = () => reject(new Error('connection refused'));
      this.ws.onclose = (e) => reject(new Error(`closed ${e.code}`));
    });
  }

  get protocol(): string {
    return this.ws.protocol;
  }

  /** Sends raw text and waits for the error frame of id '-1' (or the given id). */
  async raw(text: string, id = '-1'): Promise<Frame> {
    const answer = this.answerTo(id);
    this.ws.send(text);
    return answer;
  }

  call(action: string, payload: Record<string, unknown>, id = `c${++this.n}`): Promise<Frame> {
    const answer = this.answerTo(id);
    this.ws.send(JSON.stringify(callFrame(id, action, payload)));
    return answer;
  }

  private answerTo(id: string): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${id}`)), 5000);
      this.waiting.set(id, (f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  }

  boot(lastSeq = 0) {
    return this.call('BootNotification', { vendor: 'Test', model: 'T1', firmwareVersion: '1.0', lastSeq });
  }

  waitForHubCall(action: string, timeoutMs = 3000): Promise<Frame> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const tick = () => {
        const found = this.hubCalls.find((f) => f[0] === 2 && f[2] === action);
        if (found) return resolve(found);
        if (Date.now() - started > timeoutMs) return reject(new Error(`no ${action} from the hub`));
        setTimeout(tick, 10);
      };
      tick();
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** Resolves when `fn` returns true, polling. */
export async function eventually(fn: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!(await fn())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await Bun.sleep(10);
  }
}
