import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './cluster/free-port.ts';
import { DEV_ADMIN_PASSWORD } from './config/config.ts';

/**
 * The real server process (packages/api/src/main.ts, as `npm start` runs it after the build) on a free
 * port and a fresh PGlite directory: what a load balancer's probe and a deploy's SIGTERM meet.
 */
const repo = resolve(import.meta.dir, '../../..');
let dataDir: string;
let child: ChildProcess;
let port: number;
let output = '';
let exited: Promise<{ code: number | null; signal: string | null; at: number }>;

const base = () => `http://127.0.0.1:${port}`;

/** Sends `text` on a raw TCP socket and returns everything the server answers until it closes. */
function rawHttp(text: string): Promise<string> {
  return new Promise((ok, fail) => {
    let answer = '';
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (socket) => void socket.write(text),
        data: (_socket, data) => {
          answer += data.toString();
        },
        close: () => ok(answer),
        error: (_socket, error) => fail(error),
      },
    }).catch(fail);
  });
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base(), ...headers },
    body: JSON.stringify(body),
  });
}

/** A WebSocket that resolves its close code (or 'timeout'). */
function closeOf(ws: WebSocket, timeoutMs: number): Promise<number | 'timeout'> {
  return new Promise((ok) => {
    const timer = setTimeout(() => ok('timeout'), timeoutMs);
    ws.addEventListener('close', (event) => {
      clearTimeout(timer);
      ok(event.code);
    });
  });
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((ok, fail) => {
    ws.addEventListener('open', () => ok());
    ws.addEventListener('error', () => fail(new Error(`socket did not open; server said:\n${output}`)));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'medlocker-server-'));
  port = await freePort();
  child = spawn(join(repo, 'node_modules/.bin/bun'), ['packages/api/src/main.ts'], {
    cwd: repo,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  exited = new Promise((ok) => child.on('exit', (code, signal) => ok({ code, signal, at: Date.now() })));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    const ready = await fetch(`${base()}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the server was not ready in 240 s:\n${output}`);
    await Bun.sleep(250);
  }
}, 300_000);

afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process', () => {
  it("answers an HTTP/1.0 health check without a Host header (HAProxy's default)", async () => {
    const answer = await rawHttp('GET /healthz HTTP/1.0\r\n\r\n');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).not.toContain('Invalid URL');
  });

  it('stops on SIGTERM within 10 s, telling a connected locker and console to go elsewhere (1001)', async () => {
    const login = await post('/api/auth/login', { username: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toStartWith('medlocker_session=');
    const businesses = (await (await post('/api/businesses/listBusinesses', {}, { cookie })).json()) as {
      businesses: { id: string }[];
    };
    const businessId = businesses.businesses[0]?.id;
    expect(businessId).toBeString();
    const created = await post(
      '/api/testMachines/create',
      { businessId, name: 'Shutdown test locker', numberOfSlots: 10 },
      { cookie },
    );
    const { testMachine } = (await created.json()) as { testMachine: { credentials: { accessToken: string } } };

    const wsBase = base().replace('http', 'ws');
    const locker = new WebSocket(`${wsBase}/machine`, {
      headers: { authorization: `Bearer ${testMachine.credentials.accessToken}` },
    } as never);
    const consoleSocket = new WebSocket(`${wsBase}/ws`, { headers: { cookie, origin: base() } } as never);
    await Promise.all([opened(locker), opened(consoleSocket)]);

    const lockerClosed = closeOf(locker, 10_000);
    const consoleClosed = closeOf(consoleSocket, 10_000);
    const sent = Date.now();
    child.kill('SIGTERM');
    const exit = await Promise.race([exited, Bun.sleep(10_000).then(() => null)]);
    expect(exit, `still running 10 s after SIGTERM:\n${output}`).not.toBeNull();
    expect(exit?.code).toBe(0);
    expect((exit?.at ?? Number.POSITIVE_INFINITY) - sent).toBeLessThan(10_000);
    expect(await lockerClosed).toBe(1001);
    expect(await consoleClosed).toBe(1001);
    // Nothing listens any more.
    expect(
      await fetch(`${base()}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
  }, 30_000);
});
