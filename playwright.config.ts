import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests: real Chromium (Debian's /usr/bin/chromium) against the real server, started by
 * e2e/harness/server.ts with a fresh database and a mail catcher. Specs are e2e/*.e2e.ts so that
 * `bun test` (which runs *.test.ts) never picks them up.
 *
 * Ports: E2E_PORT (app) and E2E_MAIL_PORT (caught mail) when set, else two free ports chosen here.
 * They are put into process.env so the workers, which load this file again, see the same ones.
 */
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

process.env.E2E_PORT ??= String(freePort());
process.env.E2E_MAIL_PORT ??= String(freePort());
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  fullyParallel: false,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // The first load of a page behind the login includes core's schemas (arktype builds them at import,
  // seconds on a loaded 2-core machine): expectations wait long enough for that cold start.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    // A trace is recorded for a retry only: recording every test's made the run about a third slower.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // Users some specs need made long before they run (harness/early-users.setup.ts): first, once.
    { name: 'setup', testMatch: 'harness/*.setup.ts' },
    { name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined }, dependencies: ['setup'] },
  ],
  webServer: {
    command: 'node_modules/.bin/bun e2e/harness/server.ts',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: {
      E2E_PORT: process.env.E2E_PORT,
      E2E_MAIL_PORT: process.env.E2E_MAIL_PORT,
    },
  },
});
