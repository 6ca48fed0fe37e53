import { type BrowserContext, request as playwrightRequest } from '@playwright/test';
import { admin, baseURL, call, createUser, expect, liveSubscribed, logIn, test } from './harness/fixtures.ts';

const invalidCredentials = 'Invalid username or password';
const tooManyAttempts =
  'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.';
const timedOut = 'Your session has timed out. Please log in again';

test('a visitor is sent to log in and, after the two steps, lands on the page they asked for', async ({ page }) => {
  await page.goto('/users');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fusers$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'I forgot my password' })).toBeVisible();

  await page.getByLabel('Email address').fill(admin.email);
  await page.getByRole('button', { name: 'Next' }).click();
  // Step two: the password, with the username shown.
  await expect(page.getByText(admin.email)).toBeVisible();
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Support Users' })).toBeVisible();
  await expect(page).toHaveTitle('Support Users | MedLocker');
  await expect(page.getByText('Logged in as')).toBeVisible();
});

test('a wrong password is refused with the SPEC message', async ({ page }) => {
  await page.goto('/auth/login');
  await logIn(page, admin.email, 'not-the-password-at-all');
  await expect(page.getByRole('alert')).toHaveText(invalidCredentials);
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('repeated wrong passwords lock the account for 5 minutes', async ({ page }) => {
  const user = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await page.goto('/auth/login');
  await page.getByLabel('Email address').fill(user.email);
  await page.getByRole('button', { name: 'Next' }).click();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel('Password').fill(`wrong-password-${attempt}`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      attempt < 5 ? invalidCredentials : /Invalid username or password|temporarily disabled/,
    );
  }
  // Even the right password is refused now.
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText(tooManyAttempts);
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('logging out ends the session', async ({ page }) => {
  await page.goto('/');
  await logIn(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  // The sign-in page is a page of its own: let its load finish before the next navigation, or it aborts it.
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await page.goto('/users');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fusers$/);
});

/** Ends the browser's session on the server with its own cookie, leaving the cookie in the browser. */
async function endSessionElsewhere(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.httpOnly);
  expect(cookie).toBeDefined();
  const other = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: `${cookie?.name}=${cookie?.value}` },
  });
  await call(other, 'auth/logout');
  await other.dispose();
}

test('a session ended elsewhere sends the user to log in with the timeout message', async ({ page, context }) => {
  // A page without live updates (its socket goes nowhere: every page has the bell's live count now, and
  // a live page leaves by itself, the next test): the next call finds the session gone.
  await page.routeWebSocket(/\/ws$/, () => {});
  await page.goto('/users');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fusers$/);
  await logIn(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Support Users' })).toBeVisible();
  await endSessionElsewhere(context);

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fgroups$/);
  await expect(page.getByText(timedOut)).toBeVisible();

  // Logging in again goes back to where the user was.
  await logIn(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expect(page.getByText(timedOut)).toHaveCount(0);
});

test('a live page whose session ends elsewhere goes to log in by itself', async ({ page, context }) => {
  // The dashboard holds the live socket, which the server hangs up on when the session ends.
  const subscribed = liveSubscribed(page);
  await page.goto('/');
  await logIn(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await subscribed;
  await endSessionElsewhere(context);
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByText(timedOut)).toBeVisible();
});

test('unknown paths go to the dashboard and other /auth paths to login, keeping the return path', async ({ page }) => {
  await page.goto('/auth/nowhere?from=%2Fusers');
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fusers$/);
  await logIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/users$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveTitle('Dashboard | MedLocker');
});

test('the sign-in page loads none of the console, moves between its pages without a load, and signs in to the page asked for', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/auth/login?from=%2Fgroups');
  await expect(page).toHaveTitle('Log in | MedLocker');
  await expect(page.getByLabel('Email address')).toBeFocused();
  await page.getByLabel('Email address').fill(admin.email);
  // The email typed goes along to the reset page, without a page load (the marker would be gone).
  await page.evaluate(() => Object.assign(window, { stayed: true }));
  await page.getByRole('link', { name: 'I forgot my password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue(admin.email);
  expect(await page.evaluate(() => 'stayed' in window)).toBe(true);
  await page.goBack();
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fgroups$/);
  expect(scripts.some((path) => /\/(signed-in-routes|Dashboard)-/.test(path))).toBe(false);
  expect(scripts.length).toBeLessThanOrEqual(2);

  await logIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/groups$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
});

test('the Register link appears only when configuration allows registration', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth/register');

  await page.route('**/api/auth/config', (route) =>
    route.fulfill({ json: { allowRegistration: false, productName: 'MedLocker' } }),
  );
  await page.reload();
  await expect(page.getByRole('link', { name: 'I forgot my password' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toHaveCount(0);
});

test('a username with an identity provider is sent to it, with the page to come back to', async ({ page }) => {
  // The demo has no identity provider to sign in with, so the server's answer is stood in for here.
  let asked: { username?: string; returnUrl?: string } = {};
  await page.route('**/api/auth/getIdentityProviderAuthUrl', (route) => {
    asked = route.request().postDataJSON();
    return route.fulfill({ json: { authUrl: `${baseURL}/healthz?sso=start` } });
  });
  await page.goto('/users');
  await page.getByLabel('Email address').fill('someone@sso.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${baseURL}/healthz?sso=start`);
  expect(asked).toEqual({ username: 'someone@sso.example', returnUrl: `${baseURL}/users` });
});
