import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../packages/api/src/cluster/free-port.ts';
import { expectAccessible } from './harness/axe.ts';
import { admin, expect, test } from './harness/fixtures.ts';

/**
 * The shared harness server sends mail through SMTP to its catcher; the local mailbox is what a server
 * without SMTP_URL does instead, so this spec starts one of its own: `npm start`'s server (main.ts),
 * on a fresh PGlite database, with no SMTP_URL.
 */
const repo = resolve(import.meta.dirname, '..');
let server: ChildProcess | undefined;
let dataDir = '';
let origin = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'medlocker-e2e-mailbox-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    PUBLIC_URL: origin,
    LOG_LEVEL: 'warn',
    DEMO_FLEET: '0',
  };
  delete env.SMTP_URL;
  delete env.DATABASE_URL;
  server = spawn(join(repo, 'node_modules/.bin/bun'), ['packages/api/src/main.ts'], { cwd: repo, env, stdio: 'pipe' });
  let log = '';
  server.stdout?.on('data', (chunk) => {
    log += String(chunk);
  });
  const until = Date.now() + 150_000;
  for (;;) {
    if (Date.now() > until) throw new Error(`the mailbox server did not start:\n${log}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  // The start says where the mail goes.
  expect(log).toMatch(new RegExp(`go to the local mailbox, http://(localhost|127\\.0\\.0\\.1):${port}/mailbox`));
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => server?.once('exit', r) ?? r(null));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// The reset test changes the admin's password: the report test goes first.
test.describe.configure({ mode: 'serial' });

test('a monthly report sent without SMTP shows its CSV in the Mailbox, to download', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${origin}/auth/login`);
  await page.getByLabel('Email address').fill(admin.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'Mailbox' })).toBeVisible();
  const created = await page.request.post(`${origin}/api/businesses/createBusiness`, {
    headers: { origin },
    data: {
      name: 'Mailbox Pharmacy',
      email: 'shop@mailbox.test',
      address: { line1: '1 High Street', postTown: 'Leeds', postcode: 'LS1 1AA' },
      notificationEmails: ['owner@mailbox.test'],
    },
  });
  expect(created.status()).toBe(200);
  const { business } = (await created.json()) as { business: { id: string } };
  await page.goto(`${origin}/businesses/${business.id}`);
  await page.getByRole('button', { name: 'Email monthly report' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(/report was sent to owner@mailbox\.test\./)).toBeVisible();

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Mailbox' }).click();
  const message = page.getByRole('article', {
    name: /^MedLocker monthly report: Mailbox Pharmacy, .* to owner@mailbox\.test$/,
  });
  await expect(message).toBeVisible();
  const file = message.getByRole('list', { name: 'Files attached' }).getByRole('link');
  await expect(file).toHaveText(/^monthly-report-mailbox-pharmacy-\d{4}-\d{2}\.csv$/);
  const [download] = await Promise.all([page.waitForEvent('download'), file.click()]);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^"Month","Orders added",/);
  expect(csv.split('\r\n').filter((l) => l !== '')).toHaveLength(14);
  await expectAccessible(page, 'the mailbox with an attached file');
});

test('a reset link sent without SMTP is read in the Mailbox and followed', async ({ page, browser }) => {
  test.setTimeout(150_000);
  // Anyone asks for a reset link for the demo admin.
  await page.goto(`${origin}/auth/reset/begin`);
  await page.getByLabel('Email address').fill(admin.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();

  // Support staff find it in the Mailbox, from the side menu.
  await page.goto(`${origin}/auth/login`);
  await page.getByLabel('Email address').fill(admin.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Mailbox' }).click();
  await expect(page).toHaveURL(`${origin}/mailbox`);
  const message = page.getByRole('article', { name: `Reset your MedLocker password to ${admin.email}` });
  await expect(message).toBeVisible();
  const link = message.getByRole('list', { name: 'Links in this message' }).getByRole('link');
  await expect(link).toHaveText(new RegExp(`^${origin}/auth/reset#token=`));
  const href = (await link.getAttribute('href')) as string;

  // The link, opened where its owner reads mail (a browser not signed in), sets a new password.
  const context = await browser.newContext();
  try {
    const owner = await context.newPage();
    await owner.goto(href);
    const newPassword = 'found-in-the-mailbox-1';
    await owner.getByLabel('New password', { exact: true }).fill(newPassword);
    await owner.getByLabel('Confirm new password').fill(newPassword);
    await owner.getByRole('button', { name: 'Set password' }).click();
    await expect(owner).toHaveURL(`${origin}/auth/login`);
    await owner.getByLabel('Email address').fill(admin.email);
    await owner.getByRole('button', { name: 'Next' }).click();
    await owner.getByLabel('Password').fill(newPassword);
    await owner.getByRole('button', { name: 'Log in' }).click();
    await expect(owner.getByRole('link', { name: 'Mailbox' })).toBeVisible();
  } finally {
    await context.close();
  }
});
