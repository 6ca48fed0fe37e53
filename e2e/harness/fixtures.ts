import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
  type TestInfo,
} from '@playwright/test';
import { freePort } from '../../packages/api/src/cluster/free-port.ts';
import { DEV_ADMIN_PASSWORD } from '../../packages/api/src/config/config.ts';
import { ApiError, createRpcClient, type RpcClient } from '../../packages/core/src/index.ts';

/** The seeded support admin (the demo seed runs on the harness's fresh database). */
export const admin = { email: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD };

export const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
const mailURL = `http://127.0.0.1:${process.env.E2E_MAIL_PORT}`;

export type CaughtMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Files sent with it, each read as UTF-8 text. */
  attachments?: { filename: string; contentType: string; content: string }[];
};

/** The next mail to `to` that the harness caught (waits for it to arrive). */
export async function mailTo(to: string, timeoutMs = 10_000): Promise<CaughtMail> {
  const response = await fetch(`${mailURL}/__mail?to=${encodeURIComponent(to)}&timeoutMs=${timeoutMs}`);
  if (!response.ok) throw new Error(`no mail to ${to}: ${await response.text()}`);
  return (await response.json()) as CaughtMail;
}

/** The SMS the harness's local The SMS Works received for `destination` (447…), as the gateway sent it. */
export async function smsTo(
  destination: string,
  timeoutMs = 20_000,
  /** Which of the SMS to that destination: 1 the first. */
  n = 1,
): Promise<{
  destination: string;
  content: string;
  sender: string;
  tag: string;
  deliveryreporturl?: string;
  messageid: string;
}> {
  const response = await fetch(`${mailURL}/__sms?to=${encodeURIComponent(destination)}&timeoutMs=${timeoutMs}&n=${n}`);
  if (!response.ok) throw new Error(`no SMS to ${destination}: ${await response.text()}`);
  return await response.json();
}

/**
 * The next WhatsApp message the harness's local Cloud API received for `to` (447…, no +) and has not
 * handed out before: its text is the template's one body parameter (waits for it to arrive).
 */
export async function whatsAppTo(to: string, timeoutMs = 20_000): Promise<{ to: string; text: string; wamid: string }> {
  const response = await fetch(`${mailURL}/__whatsapp?to=${encodeURIComponent(to)}&timeoutMs=${timeoutMs}`);
  if (!response.ok) throw new Error(`no WhatsApp message to ${to}: ${await response.text()}`);
  return await response.json();
}

/** The harness's local webhook receiver (harness/webhook-receiver.ts): one endpoint per `name`. */
export const webhookReceiver = {
  async url(name: string): Promise<string> {
    const response = await fetch(`${mailURL}/__webhooks/url?name=${encodeURIComponent(name)}`);
    return ((await response.json()) as { url: string }).url;
  },
  /** What the endpoint answers from now on (200 unless told). */
  async answer(name: string, status: number): Promise<void> {
    await fetch(`${mailURL}/__webhooks/answer?name=${encodeURIComponent(name)}&status=${status}`, { method: 'POST' });
  },
  /** Every request the endpoint got: headers and the raw body, for `standardwebhooks` to verify. */
  async received(name: string): Promise<{ headers: Record<string, string>; body: string; answered: number }[]> {
    return (await fetch(`${mailURL}/__webhooks/received?name=${encodeURIComponent(name)}`)).json();
  },
  /** The end of the retry schedule for the business's failing deliveries: how many became failed. */
  async giveUp(businessId: string): Promise<number> {
    const response = await fetch(`${mailURL}/__webhooks/give-up?business=${encodeURIComponent(businessId)}`, {
      method: 'POST',
    });
    return ((await response.json()) as { failed: number }).failed;
  },
};

/** A dead job of `type` (one failed attempt with `error`), made by the harness: no flow fails on purpose. */
export async function deadJob(type: string, error: string): Promise<string> {
  const query = `type=${encodeURIComponent(type)}&error=${encodeURIComponent(error)}`;
  const response = await fetch(`${mailURL}/__jobs/dead?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness made no dead job: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Stores a business's figures for one month (London calendar month, 1–12) as the monthly job would,
 * through the harness (`POST /__stats/month`); figures left out are zeros.
 */
export async function storeStatsMonth(
  businessId: string,
  year: number,
  month: number,
  figures: Record<string, unknown>,
): Promise<void> {
  const query = `business=${encodeURIComponent(businessId)}&year=${year}&month=${month}`;
  const response = await fetch(`${mailURL}/__stats/month?${query}`, { method: 'POST', body: JSON.stringify(figures) });
  if (!response.ok) throw new Error(`the harness stored no monthly figures: ${await response.text()}`);
}

/**
 * Records `count` wrong PINs typed at a machine earlier in the keypad's hour, through the harness
 * (`POST /__keypad/wrong`), so the next wrong PIN counts after them without the keypad's waits.
 */
export async function earlierWrongPins(machineId: string, count: number): Promise<void> {
  const query = `machine=${encodeURIComponent(machineId)}&count=${count}`;
  const response = await fetch(`${mailURL}/__keypad/wrong?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness recorded no wrong PINs: ${await response.text()}`);
}

/**
 * Makes the machine's open alarm's escalation to `level` due now through the harness (`POST /__alarms/due`):
 * the alarm reads as raised one interval ago, and the step runs within a second or so.
 */
export async function escalationDue(machineId: string, level: number): Promise<void> {
  const query = `machine=${encodeURIComponent(machineId)}&level=${level}`;
  const response = await fetch(`${mailURL}/__alarms/due?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness moved no alarm: ${await response.text()}`);
}

/**
 * Makes a user's account look unused for `days` days and runs the server's inactive-accounts job through
 * the harness (`POST /__accounts/unused`): resolves once the account is disabled.
 */
export async function disableAsUnused(userId: string, days = 4000): Promise<void> {
  const query = `user=${encodeURIComponent(userId)}&days=${days}`;
  const response = await fetch(`${mailURL}/__accounts/unused?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness disabled no account: ${await response.text()}`);
}

/** Writes `count` audit entries of the business `days` old through the harness (`POST /__audit/old`). */
export async function oldAuditEntries(businessId: string, days: number, count: number): Promise<void> {
  const query = `business=${encodeURIComponent(businessId)}&days=${days}&count=${count}`;
  const response = await fetch(`${mailURL}/__audit/old?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness wrote no audit entries: ${await response.text()}`);
}

/** Puts an order's bag in its machine, loaded and past its window, through the harness (`POST /__orders/expired`). */
export async function expiredInLocker(orderId: string, location: string): Promise<void> {
  const query = `order=${encodeURIComponent(orderId)}&location=${encodeURIComponent(location)}`;
  const response = await fetch(`${mailURL}/__orders/expired?${query}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the harness put no expired bag in: ${await response.text()}`);
}

/** This month in London: the newest month the stats pages show by default. */
export function londonMonth(): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: 'numeric',
  }).formatToParts(new Date());
  return {
    year: Number(parts.find((p) => p.type === 'year')?.value),
    month: Number(parts.find((p) => p.type === 'month')?.value),
  };
}

/** The console link in a mail (the reset or invitation link). */
export function linkIn(mail: CaughtMail): string {
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in mail '${mail.subject}'`);
  return link;
}

/** A fresh, unique address per call, so tests never share (or lock) an account. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@e2e.medlocker.test`;
}

/**
 * Core's one typed RPC client (the console's and the cli's) over a Playwright request context, so
 * the calls share the context's cookie jar: `rpcOf(api).call('users', 'getUser', { id })`.
 */
export function rpcOf(api: APIRequestContext): RpcClient {
  return createRpcClient({
    baseUrl: baseURL,
    fetch: async (url, init) => {
      const answer = await api.fetch(url, {
        method: init.method ?? 'POST',
        headers: init.headers as Record<string, string>,
        data: init.body as string,
      });
      const status = answer.status();
      const nullBody = status === 204 || status === 304;
      return new Response(nullBody ? null : await answer.text(), {
        status,
        headers: answer.headersArray().map((h): [string, string] => [h.name, h.value]),
      });
    },
  });
}

/** POST /api/{area}/{method} on a request context (`path` is 'area/method'); throws on a non-2xx answer. */
export async function call<T = unknown>(api: APIRequestContext, path: string, data: unknown = {}): Promise<T> {
  const [area = '', method = ''] = path.split('/');
  try {
    return (await rpcOf(api).raw(area, method, data)).body as T;
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`${path} answered ${error.status}: ${error.code} ${error.message}`);
    throw error;
  }
}

/** A request context signed in as `email` (its own cookie jar, not the page's). */
export async function signedInApi(email: string, password: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const answer = await call<{ ok: boolean; reason?: string }>(api, 'auth/login', { username: email, password });
  if (!answer.ok) throw new Error(`could not log in as ${email}: ${answer.reason}`);
  return api;
}

type RoleToAdd = {
  name: 'Support' | 'Business' | 'Group' | 'Developer';
  resource?: string | null;
  accessLevels: 'Admin'[];
};

/**
 * Creates a user with the given role through the API as the admin, then sets their password the way a
 * person would: through the emailed invitation link (auth.completeResetPassword with its token).
 */
export async function createUser(options: {
  role: RoleToAdd;
  password?: string;
  email?: string;
}): Promise<{ email: string; password: string; userId: string }> {
  const email = options.email ?? uniqueEmail(options.role.name.toLowerCase());
  const password = options.password ?? `pw-${Math.random().toString(36).slice(2)}-long-enough`;
  const api = await signedInApi(admin.email, admin.password);
  try {
    const resourceType = options.role.name === 'Business' ? 'business' : options.role.name === 'Group' ? 'group' : null;
    const { userId } = await call<{ userId: string }>(api, 'auth/addRoles', {
      addIdpByDefault: false,
      email,
      frontEnd: options.role.name === 'Support' ? 'support' : 'pharmacy',
      resourceId: options.role.resource ?? null,
      resourceType,
      roles: [options.role],
    });
    const fragment = new URL(linkIn(await mailTo(email))).hash.slice(1);
    const token = new URLSearchParams(fragment).get('token') ?? '';
    await call(api, 'auth/completeResetPassword', { password, token: decodeURIComponent(token) });
    return { email, password, userId };
  } finally {
    await api.dispose();
  }
}

/**
 * Where harness/early-users.setup.ts leaves a user it made at the start of the run (`{ email, password,
 * userId, createdAt }`), one file per run (the app's port is the run's own).
 */
export function earlyUserFile(name: string): string {
  return join(tmpdir(), `medlocker-e2e-${process.env.E2E_PORT}-${name}.json`);
}

/** The first business of the demo seed, for Business roles. */
export async function firstBusiness(): Promise<{ id: string; name: string }> {
  const api = await signedInApi(admin.email, admin.password);
  try {
    const page = await call<{ data: { id: string; name: string }[] }>(api, 'businesses/listBusinessesInfo', {});
    const business = page.data[0];
    if (!business) throw new Error('the demo seed has no businesses');
    return business;
  } finally {
    await api.dispose();
  }
}

/**
 * A business of the demo seed, found by its name (a prefix search, so the businesses other specs made
 * before, which sort ahead of it, do not push it off the first page).
 */
export async function demoBusiness(name: string): Promise<{ id: string; name: string }> {
  const { data } = await asAdmin<{ data: { id: string; name: string }[] }>('businesses/listBusinessesInfo', {
    filter: name,
  });
  const found = data.find((b) => b.name === name);
  if (!found) throw new Error(`the demo seed has no ${name}`);
  return found;
}

/** Logs in through the two-step form, starting wherever the page is (or at /auth/login). */
/**
 * Resolves once the page's live socket (`/ws`) has confirmed a subscription. Call it before the
 * navigation that opens the socket: the frame may come before a later listener would be attached.
 */
export function liveSubscribed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().endsWith('/ws')) return;
      ws.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"subscribed"')) resolve();
      });
    });
  });
}

export async function logIn(page: Page, email: string, password: string) {
  // A console page sends a signed-out visitor to the sign-in page, a page of its own: wait for that
  // page load rather than race it.
  if (!page.url().includes('/auth/login') && page.url().startsWith(baseURL)) {
    await page.waitForURL(/\/auth\/login/, { timeout: 10_000 }).catch(() => undefined);
  }
  if (!page.url().includes('/auth/login')) await page.goto('/auth/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Signs a freshly invited user in, named as the complete-profile screen (SPEC §1) would name them, and
 * opens `path` (their dashboard unless given). Through the API, as {@link signIn}: the screen itself is
 * tested where it is the subject (access.e2e.ts, and the specs whose own helpers fill it in).
 */
export async function signInAsNew(
  page: Page,
  user: { email: string; password: string },
  name: { first: string; last: string } = { first: 'Pat', last: 'Pharmacist' },
  path = '/',
) {
  await signIn(page, user, path, name);
}

/**
 * Every test fails on an uncaught error in the page or a Content Security Policy refusal, so a
 * broken script or a CSP-blocked asset cannot pass unnoticed behind a page that happens to render.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
          errors.push(message.text());
        }
      });
      await use(errors);
      expect(errors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** A name no other test uses: 'Prefix k3x9a1b2'. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** One API call as the seeded admin (its own short-lived session). */
export async function asAdmin<T = unknown>(path: string, data: unknown = {}): Promise<T> {
  const api = await signedInApi(admin.email, admin.password);
  try {
    return await call<T>(api, path, data);
  } finally {
    await api.dispose();
  }
}

/** A fresh session token of the seeded admin, as the cli and locker-sim send it (Bearer). */
async function adminSessionToken(): Promise<string> {
  const api = await signedInApi(admin.email, admin.password);
  try {
    const { cookies } = await api.storageState();
    const token = cookies.find((c) => c.name === 'medlocker_session')?.value;
    if (!token) throw new Error('signing in as the admin set no medlocker_session cookie');
    return token;
  } finally {
    await api.dispose();
  }
}

/** Adds a business through the API (a valid one; fields may be overridden). */
export async function createBusiness(
  overrides: { name?: string; email?: string } = {},
): Promise<{ id: string; name: string }> {
  const name = overrides.name ?? uniqueName('E2E Pharmacy');
  const { business } = await asAdmin<{ business: { id: string; name: string } }>('businesses/createBusiness', {
    name,
    email: overrides.email ?? uniqueEmail('pharmacy'),
    address: { line1: '1 High Street', postTown: 'Leeds', postcode: 'LS1 1AA' },
  });
  return business;
}

/** A new business whose patients' ID is a required, validated NHS number (its displayIdField). */
export async function createNhsBusiness(): Promise<{ id: string; name: string }> {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId: business.id,
    settings: { displayIdField: { name: 'NHS number', required: true, validateNhsNumber: true } },
  });
  return business;
}

/** A patient of the business (Cy Cancel, a test mobile) and a way to give them orders, each with a unique barcode. */
export async function patientWithOrders(businessId: string): Promise<{
  patientId: string;
  order: () => Promise<{ id: string; reference: string; barcode: string }>;
}> {
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Cy', family: 'Cancel' },
      mobileNumber: '07700 900125',
    },
  });
  const order = async () =>
    (
      await asAdmin<{ order: { id: string; reference: string; barcode: string } }>('orders/create', {
        businessId,
        patientId: patient.id,
        barcode: uniqueName('RX').replace(' ', '-').toUpperCase(),
      })
    ).order;
  return { patientId: patient.id, order };
}

/** Adds a group through the API. */
export async function createGroup(overrides: { name?: string } = {}): Promise<{ id: string; name: string }> {
  const { group } = await asAdmin<{ group: { id: string; name: string } }>('groups/createGroup', {
    name: overrides.name ?? uniqueName('E2E Group'),
  });
  return group;
}

/**
 * Signs the page's browser context in through the API (`auth/login` on the page's own request context,
 * so the session cookie lands in the browser's jar), opens `path` and waits for the console's shell. For
 * specs about something other than signing in: it skips the sign-in page and the dashboard a sign-in
 * lands on, two page loads a test. The sign-in page itself is auth.e2e.ts's (and `logIn`'s) to test.
 */
export async function signIn(
  page: Page,
  user: { email: string; password: string },
  path = '/',
  /** Names to give a user who has none yet (what the complete-profile screen asks for). */
  name?: { first: string; last: string },
): Promise<void> {
  const answer = await call<{ ok: boolean; reason?: string; result?: { user: { id: string } } }>(
    page.request,
    'auth/login',
    { username: user.email, password: user.password },
  );
  if (!answer.ok || !answer.result) throw new Error(`could not sign ${user.email} in: ${answer.reason}`);
  if (name) {
    await call(page.request, 'users/updateUser', {
      id: answer.result.user.id,
      givenName: name.first,
      familyName: name.last,
    });
  }
  // The console asks for its session on a first load only when its hint says the browser may hold one
  // (console/src/state/session-hint.ts; the sign-in page sets it). Set it as that page would, once per
  // tab, so a later sign-out in the test clears it for good.
  await page.addInitScript(() => {
    try {
      if (sessionStorage.getItem('e2e.signedIn') === null) {
        sessionStorage.setItem('e2e.signedIn', '1');
        localStorage.setItem('medlocker.session', '1');
      }
    } catch {
      // about:blank and other documents without storage
    }
  });
  await page.goto(path);
  // The shell's account panel (in the folded menu on a phone, so attached rather than visible). The
  // first page after signing in loads core's contract: slow on a cold, loaded machine.
  await expect(page.getByRole('region', { name: 'Your account', includeHidden: true })).toBeAttached({
    timeout: 30_000,
  });
}

/** Signs the page in as the seeded admin and opens `path` (the dashboard unless given). */
export async function logInAsAdmin(page: Page, path = '/') {
  await signIn(page, admin, path);
}

// ---- machines, lockers and patients (machines, dashboard, import and patients specs) ----

/** A machine in `businessId`, named uniquely unless a name is given. */
export async function createMachine(
  businessId: string,
  name?: string,
): Promise<{ id: string; name: string; businessId: string }> {
  const { machine } = await asAdmin<{ machine: { id: string; name: string; businessId: string } }>(
    'machines/createMachine',
    { businessId, name: name ?? uniqueName('Locker'), numberOfSlots: 40 },
  );
  return machine;
}

export type LockerView = { index: number; status: string; machineId: string | null; outOfOrder: boolean };

/** A running packages/locker-sim child process: one locker that pairs with a user code (or a test machine). */
export type SimulatedLocker = {
  /** The user code it printed ('KDNV-QXRT'), for the Pair dialog; empty for a test machine. */
  userCode: string;
  /** GET its control API's view of the locker. */
  view(): Promise<LockerView>;
  /** POST a step to its control API, e.g. `{ do: 'alarm', code: 'EM_0016' }`. */
  control(step: Record<string, unknown>): Promise<void>;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
};

/**
 * Stops a test's simulated locker. When the test failed, what the locker printed goes with the report
 * (an attachment) and to the log, since the browser's trace cannot show it.
 */
export async function stopLocker(locker: SimulatedLocker | undefined, testInfo: TestInfo): Promise<void> {
  if (!locker) return;
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('locker-sim output', { body: locker.output(), contentType: 'text/plain' });
    console.log(`locker-sim output (${testInfo.title}):\n${locker.output().slice(-4000)}`);
  }
  await locker.stop();
}

/**
 * Starts the locker simulator against the harness server, in plain mode with its own state directory
 * and control port, and waits for the user code it prints. With `testMachineOf` (a business id) it
 * creates a test machine there as QA does (`--test-machine`, the admin's session token) and waits until
 * that locker is online instead. Stop it in afterEach.
 */
export async function startLocker(
  options: {
    testMachineOf?: string;
    /** A scenario file the simulator plays from its start. */
    scenario?: string;
  } = {},
): Promise<SimulatedLocker> {
  const { spawn } = await import('node:child_process');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join, resolve } = await import('node:path');
  const repo = resolve(import.meta.dirname, '../..');
  const stateDir = await mkdtemp(join(tmpdir(), 'medlocker-sim-'));
  const controlPort = await freePort();
  const child = spawn(
    join(repo, 'node_modules/.bin/bun'),
    [
      join(repo, 'packages/locker-sim/src/main.ts'),
      '--api',
      baseURL,
      '--plain',
      '--state-dir',
      stateDir,
      '--control-port',
      String(controlPort),
      '--reading-interval',
      '1',
      '--batch',
      '2',
      ...(options.scenario ? ['--scenario', options.scenario] : []),
      ...(options.testMachineOf
        ? ['--test-machine', '--business', options.testMachineOf, '--token', await adminSessionToken()]
        : []),
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await rm(stateDir, { recursive: true, force: true });
  };
  const controlUrl = `http://127.0.0.1:${controlPort}/lockers`;
  // Generous: a busy 2-core CI machine has taken over 15 s to start the simulator.
  const deadline = Date.now() + 30_000;
  let userCode: string | undefined = options.testMachineOf ? '' : undefined;
  while (options.testMachineOf) {
    const status = await fetch(controlUrl)
      .then(async (r) => (await r.json()) as LockerView[] | { lockers: LockerView[] })
      .then((body) => (Array.isArray(body) ? body : body.lockers)[0]?.status)
      .catch(() => undefined);
    if (status === 'online') break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the simulated test machine did not come online:\n${printed}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  while (userCode === undefined) {
    userCode = printed.match(/pair me with code (\S+)/)?.[1];
    if (userCode) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`locker-sim printed no user code:\n${printed}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    userCode,
    output: () => printed,
    stop,
    async view() {
      const response = await fetch(controlUrl);
      const body = (await response.json()) as LockerView[] | { lockers: LockerView[] };
      const lockers = Array.isArray(body) ? body : body.lockers;
      const locker = lockers[0];
      if (!locker) throw new Error('the simulator reports no locker');
      return locker;
    },
    async control(step) {
      const response = await fetch(`${controlUrl}/1`, { method: 'POST', body: JSON.stringify(step) });
      if (!response.ok) throw new Error(`locker-sim control answered ${response.status}: ${await response.text()}`);
    },
  };
}

/**
 * A simulated locker paired with `machineId` as support pairs one (the code it prints, activated by the
 * admin), once the simulator reports it online. Stop it in afterEach.
 */
export async function pairedLocker(machineId: string): Promise<SimulatedLocker> {
  const locker = await startLocker();
  try {
    await asAdmin('auth/activateDeviceAuth', { machineId, userCode: locker.userCode });
    await expect.poll(async () => (await locker.view()).status, { timeout: 40_000 }).toBe('online');
  } catch (error) {
    await locker.stop();
    throw error;
  }
  return locker;
}

/**
 * Drops `content` as a file named `name` on a drop zone, the way a browser does:
 * a DataTransfer built in the page carries the File through dragenter, dragover and drop.
 */
export async function dropFile(zone: Locator, name: string, content: string) {
  const dataTransfer = await zone.page().evaluateHandle(
    ({ name, content }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], name, { type: 'text/csv' }));
      // A drag from the desktop allows any operation; a DataTransfer made by script says 'none' and
      // ignores assignments outside a real drag, so the page is told what a real one would say.
      let dropEffect = 'none';
      Object.defineProperty(transfer, 'effectAllowed', { value: 'all' });
      Object.defineProperty(transfer, 'dropEffect', {
        get: () => dropEffect,
        set: (v: string) => {
          dropEffect = v;
        },
      });
      // A dragged desktop file is a file-system entry; one added by script has none.
      const proto = DataTransferItem.prototype as DataTransferItem & { __e2eEntry?: boolean };
      if (!proto.__e2eEntry) {
        const original = proto.webkitGetAsEntry;
        proto.webkitGetAsEntry = function (this: DataTransferItem) {
          return (
            original.call(this) ??
            (this.kind === 'file' ? ({ isFile: true, isDirectory: false } as FileSystemEntry) : null)
          );
        };
        proto.__e2eEntry = true;
      }
      return transfer;
    },
    { name, content },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}
