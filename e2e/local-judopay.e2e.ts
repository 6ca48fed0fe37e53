import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../packages/api/src/cluster/free-port.ts';
import { admin, expect, test } from './harness/fixtures.ts';

/**
 * `npm start`'s server (main.ts, as scripts/start.mjs runs it after the builds) on a fresh PGlite
 * database, with no Judopay configured: it starts a local Judopay, and a demo patient pays for their
 * order by card on it. The shared harness names a Judopay of its own, so this spec starts its server.
 */
const repo = resolve(import.meta.dirname, '..');
let server: ChildProcess | undefined;
let dataDir = '';
let origin = '';
let log = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'medlocker-e2e-judopay-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    PUBLIC_URL: origin,
    LOG_LEVEL: 'info',
    DEMO_FLEET: '0',
  };
  for (const name of ['DATABASE_URL', 'JUDOPAY_API_URL', 'JUDOPAY_LIVE_API_URL', 'JUDOPAY_LOCAL', 'SMTP_URL']) {
    delete env[name];
  }
  server = spawn(join(repo, 'node_modules/.bin/bun'), ['packages/api/src/main.ts'], { cwd: repo, env, stdio: 'pipe' });
  server.stdout?.on('data', (chunk) => {
    log += String(chunk);
  });
  const until = Date.now() + 150_000;
  for (;;) {
    if (Date.now() > until) throw new Error(`the server did not start:\n${log}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => server?.once('exit', r) ?? r(null));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('a demo patient pays by card on the local Judopay that npm start runs, and sees their PIN', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  // The start says where card payments go.
  expect(log).toMatch(/Card payments \(sandbox\): the local Judopay, http:\/\/127\.0\.0\.1:\d+: no card is charged/);

  // Jack Jones's order at Harborne's Front Window, £9.90 to pay (README: "Trying it out without providers").
  const login = await page.request.post(`${origin}/api/auth/login`, {
    headers: { origin },
    data: { username: admin.email, password: admin.password },
  });
  expect(login.status()).toBe(200);
  const businesses = await page.request.post(`${origin}/api/businesses/listBusinesses`, {
    headers: { origin },
    data: { filterText: 'Harborne' },
  });
  const [harborne] = ((await businesses.json()) as { businesses: { id: string }[] }).businesses;
  const listed = await page.request.post(`${origin}/api/orders/listOrdersByBusiness`, {
    headers: { origin },
    data: { businessId: harborne?.id, filterText: 'Jones', onlyCurrent: true },
  });
  const orders = ((await listed.json()) as { orders: { id: string; paymentStatus: string }[] }).orders;
  const order = orders.find((o) => o.paymentStatus === 'unpaid');
  expect(order).toBeDefined();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const patient = await phone.newPage();
    await patient.goto(`${origin}/p/${order?.id}`);
    await patient.getByLabel('Day').fill('2');
    await patient.getByLabel('Month').fill('11');
    await patient.getByLabel('Year').fill('1962');
    await patient.getByRole('button', { name: 'Continue' }).click();
    await expect(patient.getByText('Hello Jack', { exact: true })).toBeVisible();
    await expect(patient.getByTestId('pin')).toHaveCount(0);
    await patient.getByRole('button', { name: 'Pay by card' }).click();

    // The local Judopay's page: a test card, then Pay.
    await expect(patient.getByRole('heading', { name: 'Pay £9.90' })).toBeVisible();
    await expect(patient.getByText(/A local Judopay for development and tests: no card is charged/)).toBeVisible();
    await patient.getByLabel('Card').selectOption('mastercard');
    await patient.getByRole('button', { name: 'Pay', exact: true }).click();

    await expect(patient.getByText('Payment received. Thank you.')).toBeVisible({ timeout: 25_000 });
    await expect(patient).toHaveURL(new RegExp(`/p/${order?.id}$`));
    await expect(patient.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
    await expect(patient.getByText('Paid £9.90 by card')).toBeVisible();
  } finally {
    await phone.close();
  }
  const paid = await page.request.post(`${origin}/api/orders/get`, { headers: { origin }, data: { id: order?.id } });
  expect(((await paid.json()) as { order: { paymentStatus: string } }).order.paymentStatus).toBe('paid');
});
