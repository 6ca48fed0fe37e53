import { afterEach, expect, it } from 'bun:test';
import { SimLocker } from './locker.ts';

/*
 * Pairing against a stand-in for the server's two device-flow endpoints (docs/LOCKER-PROTOCOL.md §2),
 * so the server can be down, fail, or refuse on cue. `random` makes the backoff a few milliseconds.
 */

type Fake = { codes: number; polls: number; stop: () => void };

const granted = () =>
  Response.json({
    access_token: 'access',
    token_type: 'Bearer',
    expires_in: 86_400,
    expires_at: Date.now() + 86_400_000,
    refresh_token: 'refresh',
    machine_id: 'm-1',
  });
const tokenError = (error: string) => Response.json({ error, error_description: error }, { status: 400 });
const pending = () => tokenError('authorization_pending');

/** Serves the device flow on `port`; the n-th poll of a device code (from 1) is answered by `poll(n)`. */
function serveDeviceFlow(port: number, poll: (n: number) => Response): Fake {
  const fake: Fake = { codes: 0, polls: 0, stop: () => server.stop(true) };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/machine/device/code') {
        fake.codes++;
        return Response.json({
          device_code: `device-${fake.codes}`,
          user_code: `KDNVQXR${'BCDFGHJKMN'[fake.codes % 10]}`,
          verification_uri: `http://127.0.0.1:${port}/businesses`,
          expires_in: 600,
          interval: 0.02,
        });
      }
      if (path === '/machine/token') {
        const form = new URLSearchParams(await request.text());
        if (form.get('grant_type') === 'refresh_token') return granted();
        fake.polls++;
        return poll(fake.polls);
      }
      // The WebSocket endpoint is not part of this stand-in: once paired, the locker's connects fail.
      return new Response('not found', { status: 404 });
    },
  });
  return fake;
}

/** A loopback port nothing listens on (the server is down). */
function downPort(): number {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = server.port ?? 0;
  server.stop(true);
  return port;
}

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await Bun.sleep(5);
  }
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function sim(port: number) {
  const lines: string[] = [];
  const locker = new SimLocker({
    api: `http://127.0.0.1:${port}`,
    index: 1,
    readingEverySeconds: 3600,
    random: () => 0.01,
    log: (line) => lines.push(line),
  });
  cleanup.push(() => locker.stop());
  return { locker, lines };
}

it('waits for a server it cannot reach at start, and pairs once the server is up', async () => {
  const port = downPort();
  const { locker, lines } = sim(port);
  await locker.start();
  await eventually(() => locker.status === 'waiting for server');
  expect(locker.view().userCode).toBeNull();
  await eventually(() => lines.filter((l) => l.includes('waiting for server (server unreachable)')).length >= 3);

  const fake = serveDeviceFlow(port, (n) => (n < 2 ? pending() : granted()));
  cleanup.push(fake.stop);
  await eventually(() => locker.view().machineId === 'm-1');
  expect(fake.codes).toBe(1);
  expect(lines.some((l) => l.includes('pair me with code KDNV-QXRC'))).toBe(true);
});

it('keeps its code and polling through server failures, and pairs when the server answers again', async () => {
  const port = downPort();
  const fake = serveDeviceFlow(port, (n) =>
    n === 1
      ? new Response('Internal Server Error', { status: 500 })
      : n === 2
        ? Response.json({ error: { code: 'INTERNAL', message: 'boom' } }, { status: 503 })
        : n === 3
          ? pending()
          : granted(),
  );
  cleanup.push(fake.stop);
  const { locker, lines } = sim(port);
  await locker.start();
  await eventually(() => locker.view().machineId === 'm-1');
  // The code staff may be typing stayed valid: no second one was asked for.
  expect(fake.codes).toBe(1);
  expect(lines.some((l) => l.includes('waiting for server (server answered 500)'))).toBe(true);
  expect(lines.some((l) => l.includes('waiting for server (server answered 503)'))).toBe(true);
});

it('starts a new pairing when its code is refused for good', async () => {
  const port = downPort();
  const fake = serveDeviceFlow(port, (n) => (n === 1 ? tokenError('access_denied') : n === 2 ? pending() : granted()));
  cleanup.push(fake.stop);
  const { locker, lines } = sim(port);
  await locker.start();
  await eventually(() => locker.view().machineId === 'm-1');
  expect(fake.codes).toBe(2);
  expect(lines.some((l) => l.includes('pairing code refused (access_denied): asking for a new one'))).toBe(true);
  expect(lines.some((l) => l.includes('pair me with code KDNV-QXRD'))).toBe(true);
});
