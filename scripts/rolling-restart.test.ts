// A rolling restart of `npm run cluster` (PostgreSQL only: runs when TEST_DATABASE_URL is set, on a fresh
// database): every api process is stopped with SIGTERM, one after another, and started again by the
// script, while a console reads, a record system creates patients with Idempotency-Keys and a locker
// sends events through HAProxy. A stopping process first fails /readyz (SHUTDOWN_DRAIN_SECONDS) so
// HAProxy takes it out before it stops taking requests: no request fails and no locker event is lost.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { seed } from '../bench/hub/harness.ts';
import { createDb } from '../db/src/index.ts';
import { createFreshPostgresDatabase } from '../db/src/testing.ts';
import { DEV_ADMIN_PASSWORD } from '../packages/api/src/config/config.ts';
import { testPatient } from '../packages/api/src/testing/patients.ts';
import { type RunningCluster, startCluster, testClusterPort } from './cluster-kit.ts';

const base = process.env.TEST_DATABASE_URL;

type Failure = { who: string; status: number | string };

/** Calls through the balancer, counting every answer that is not a success as a failure. */
function client(url: string, failures: Failure[]) {
  return async (who: string, path: string, init: RequestInit, ok: number[] = [200]) => {
    try {
      const res = await fetch(`${url}${path}`, init);
      await res.arrayBuffer();
      if (!ok.includes(res.status)) failures.push({ who, status: res.status });
      return res;
    } catch (error) {
      failures.push({ who, status: String(error) });
      return undefined;
    }
  };
}

/**
 * A locker as the protocol has it: each data event carries its own id and sequence number and is kept
 * until the hub answers it; when the connection drops (a process stopping closes it with 1001) the
 * locker connects again, through the balancer, and sends what was not answered.
 */
class Locker {
  sent = 0;
  readonly answered = new Set<string>();
  private readonly unanswered = new Map<string, string>();
  private ws: WebSocket | undefined;
  private seq = 0;
  private stopped = false;
  reconnects = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  async connect(): Promise<void> {
    while (!this.stopped) {
      const opened = await new Promise<WebSocket | undefined>((resolve) => {
        const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/machine`, {
          headers: { authorization: `Bearer ${this.token}` },
        } as never);
        ws.onopen = () => resolve(ws);
        ws.onerror = () => resolve(undefined);
      });
      if (!opened) {
        await Bun.sleep(200);
        continue;
      }
      this.ws = opened;
      opened.onmessage = (m) => {
        const frame = JSON.parse(String(m.data)) as [number, string, unknown];
        if (frame[0] === 3 && this.unanswered.delete(frame[1])) this.answered.add(frame[1]);
      };
      opened.onclose = () => {
        this.ws = undefined;
        if (!this.stopped) {
          this.reconnects++;
          void Bun.sleep(100).then(() => this.connect());
        }
      };
      const boot = { vendor: 'test', model: 'rolling', firmwareVersion: '1', lastSeq: this.seq };
      opened.send(JSON.stringify([2, `boot-${crypto.randomUUID().slice(0, 30)}`, 'BootNotification', boot]));
      // Whatever was sent and not answered goes again: the hub stores an event once, by its id.
      for (const frame of this.unanswered.values()) opened.send(frame);
      return;
    }
  }

  event(): void {
    this.seq++;
    const id = crypto.randomUUID();
    const payload = { eventId: id, seq: this.seq, created: Date.now(), code: 'EM_9001', level: 'info' };
    const frame = JSON.stringify([2, id, 'MachineEvent', payload]);
    this.unanswered.set(id, frame);
    this.sent++;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame);
  }

  get waiting(): number {
    return this.unanswered.size;
  }

  stop(): void {
    this.stopped = true;
    this.ws?.close();
  }
}

describe.skipIf(!base)('a rolling restart of npm run cluster [postgres]', () => {
  let fresh: Awaited<ReturnType<typeof createFreshPostgresDatabase>>;
  let cluster: RunningCluster | undefined;
  const port = testClusterPort();

  beforeAll(async () => {
    fresh = await createFreshPostgresDatabase(base as string);
  });
  afterAll(async () => {
    if (cluster?.proc.exitCode === null) await cluster.stop('SIGINT').catch(() => {});
    await fresh?.drop();
  });

  test('restarts every api process while clients and a locker work: 0 failed requests, 0 lost locker events', async () => {
    cluster = await startCluster({ databaseUrl: fresh.url, size: 3, port, output: 'ignore' });
    const { url } = cluster;
    const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 2 });
    const { tokens } = await seed(opened, 1);

    const failures: Failure[] = [];
    const call = client(url, failures);
    const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, ...headers },
      body: JSON.stringify(body),
    });
    const login = await call(
      'setup',
      '/api/auth/login',
      json({ username: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD }),
    );
    const cookie = login?.headers.get('set-cookie')?.split(';')[0] ?? '';
    const rpc = async (path: string, body: unknown) =>
      (await (await fetch(`${url}/api/${path}`, json(body, { cookie }))).json()) as Record<string, unknown>;
    const made = await rpc('integration/createOrUpdateIntegrationClient', {
      businessId: 'bench',
      name: 'Rolling PMR',
      contactEmail: 'pmr@example.test',
      suppressPatientMessages: true,
      webhookUrl: null,
      rateLimit: 3600,
    });
    const clientId = (made.client as { id: string }).id;
    const { secret } = (await rpc('integration/generateClientSecret', { id: clientId })) as unknown as {
      secret: string;
    };
    const token = (await (
      await fetch(`${url}/integration/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      })
    ).json()) as { access_token: string };
    expect(failures).toEqual([]);

    const locker = new Locker(url, tokens[0] as string);
    await locker.connect();
    let working = true;
    let reads = 0;
    let creates = 0;
    const reader = (async () => {
      while (working) {
        await call('console', '/api/businesses/listBusinesses', json({}, { cookie }));
        reads++;
      }
    })();
    const creator = (async () => {
      for (let i = 1; working; i++) {
        const headers = { authorization: `Bearer ${token.access_token}`, 'idempotency-key': crypto.randomUUID() };
        await call('pmr', '/integration/v1/patients', json(testPatient(i), headers), [200, 201]);
        creates++;
        // Within the client's hourly limit (3,600 requests) however long the restarts take.
        await Bun.sleep(100);
      }
    })();
    const events = (async () => {
      while (working) {
        locker.event();
        await Bun.sleep(50);
      }
    })();

    // Each api process in turn: stopped as a deploy does (SIGTERM), started again by the script, and
    // back in HAProxy's rotation before the next one goes.
    for (const [apiPort, pid] of [...cluster.apis]) {
      process.kill(pid, 'SIGTERM');
      await cluster.next((l) => l.role === 'api' && l.port === apiPort && l.restarted === true, 60_000);
      await Bun.sleep(2_500);
    }
    working = false;
    await Promise.all([reader, creator, events]);
    // The locker's last events are answered by whichever process it is connected to now.
    for (let i = 0; i < 100 && locker.waiting > 0; i++) await Bun.sleep(100);
    locker.stop();

    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(50);
    expect(creates).toBeGreaterThan(20);
    expect(locker.reconnects).toBeGreaterThan(0);
    expect(locker.waiting).toBe(0);
    const stored = await opened.db
      .selectFrom('machine_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', 'm0')
      .where('code', '=', 'EM_9001')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(locker.sent);
    await opened.close();
    expect(await cluster.stop('SIGINT')).toBe(0);
  }, 300_000);
});
