import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { freePort } from './cluster/free-port.ts';

/**
 * The server as an operator starts it in production (NODE_ENV=production, main.ts): what it refuses, that
 * it seeds no demo data, that its stdout is JSON lines only, and that a second server on the same port or
 * data folder stops with a line naming why.
 */
const main = join(import.meta.dir, 'main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'medlocker-production-'));
let port: number;

const live = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NODE_ENV: 'production',
  PORT: String(port),
  DATA_DIR: dataDir,
  SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
  SMTP_URL: 'smtp://127.0.0.1:9/',
  PUBLIC_URL: 'https://lockers.example.test',
  SEED_ADMIN_EMAIL: 'first.admin@example.test',
  SEED_ADMIN_PASSWORD: 'a-long-production-secret',
  LOG_LEVEL: 'info',
});

/** Every line a process printed, each parsed as JSON (a line that is not JSON fails the parse). */
const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { level: string; msg: string; [k: string]: unknown });

const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, [main], { env, encoding: 'utf8', timeout: 60_000 });

describe('the server in production', () => {
  let server: ReturnType<typeof spawn>;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    port = await freePort();
    server = spawn(process.execPath, [main], { env: live() });
    server.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    server.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const deadline = Date.now() + 90_000;
    while (!stdout.includes('"msg":"ready"')) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`no start:\n${stdout}\n${stderr}`);
      await Bun.sleep(100);
    }
  }, 120_000);

  afterAll(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
    // A graceful stop (jobs drained, the database closed) takes a few seconds on a busy machine.
  }, 60_000);

  it('refuses each unsafe setting with a JSON line that names the variable, and exit code 2', () => {
    for (const [unset, named] of [
      ['SMTP_URL', /SMTP_URL: must be set in production/],
      ['PUBLIC_URL', /PUBLIC_URL: must be set in production/],
      ['SECRETS_KEY', /SECRETS_KEY: must be set in production/],
    ] as const) {
      const env = live();
      delete env[unset];
      const refused = run(env);
      expect(refused.status).toBe(2);
      const [line] = jsonLines(refused.stderr);
      expect(line).toMatchObject({ level: 'fatal', msg: 'invalid configuration' });
      expect(String(line?.error)).toMatch(named);
    }
    // A local Judopay takes no real payments: asked for in production, the start is refused.
    const judopay = run({ ...live(), JUDOPAY_LOCAL: '1' });
    expect(judopay.status).toBe(2);
    expect(judopay.stderr).toContain('JUDOPAY_LOCAL: a local Judopay takes no real payments');
    const http = run({ ...live(), PUBLIC_URL: 'http://localhost:8080' });
    expect(http.status).toBe(2);
    expect(http.stderr).toContain("PUBLIC_URL: 'http://localhost:8080' must be https in production");
  }, 120_000);

  it('writes JSON lines only, and seeds the first admin without any demo data', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    const lines = jsonLines(stdout);
    expect(lines.map((l) => l.msg)).toContain('first admin seeded');
    expect(lines.map((l) => l.msg)).not.toContain('demo data seeded');
    // Card payments go to Judopay itself: no local Judopay is started, and no business is given its account.
    expect(lines.map((l) => l.msg)).not.toContain('sandbox card payments go to the local Judopay');
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://lockers.example.test' },
      body: JSON.stringify({ username: 'first.admin@example.test', password: 'a-long-production-secret' }),
    });
    expect(login.status).toBe(200);
    let cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://lockers.example.test', cookie },
        body: JSON.stringify(body),
      });
      cookie = res.headers.get('set-cookie')?.split(';')[0] || cookie;
      return res;
    };
    // Support staff need a second factor in production: the first admin sets one up before anything else.
    expect((await call('businesses/listBusinesses', {})).status).toBe(403);
    const { secret } = (await (await call('auth/beginTotpSetup', {})).json()) as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await call('auth/finishTotpSetup', { name: 'Phone', secret, code })).status).toBe(200);
    const businesses = await call('businesses/listBusinesses', {});
    expect(businesses.status).toBe(200);
    expect(((await businesses.json()) as { businesses: unknown[] }).businesses).toEqual([]);
    // An access line per request at info, with its request id; the probe is not logged.
    const access = jsonLines(stdout).filter((l) => l.msg === 'request');
    expect(access.some((l) => l.path === '/api/auth/login' && typeof l.requestId === 'string')).toBe(true);
    expect(access.some((l) => l.path === '/readyz')).toBe(false);
  }, 60_000);

  it('stops a second server on the same data folder, naming the process that holds it', () => {
    const second = run({ ...live(), PORT: String(port + 1) });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`The data folder ${dataDir} is in use by process ${server.pid}`);
  }, 60_000);

  it('stops a second server on the same port', () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'medlocker-production-'));
    try {
      const second = run({ ...live(), DATA_DIR: otherDir });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(`Port ${port} is in use by another process`);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  }, 120_000);
});
