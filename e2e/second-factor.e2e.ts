import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  asAdmin,
  expect as baseExpect,
  baseURL,
  createBusiness,
  createUser,
  logIn,
  logInAsAdmin,
  test,
} from './harness/fixtures.ts';

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/*
 * A second factor at staff sign-in (docs/SECURITY.md "Second factor"): an authenticator app added on
 * /account signs in with a code the test computes, a recovery code works once, support resets a user's
 * factors, a passkey made by Chromium's virtual authenticator signs in, and a user whose business requires
 * a factor is taken to set one up after the password.
 */

/** The code an authenticator app shows for `secret`, `ahead` steps from now (the set-up took this one). */
const codeOf = (secret: string, ahead = 1) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + ahead * 30_000 });

/** Adds an authenticator app from the section on the page; answers its secret and the recovery codes shown. */
async function addAuthenticatorApp(page: Page) {
  await page.getByRole('button', { name: 'Add an authenticator app' }).click();
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  await page.getByLabel('Code from the app').fill(codeOf(secret, 0));
  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list).toBeVisible();
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  return { secret, codes };
}

/** Signs the page out by forgetting its cookies, then gives the password again. */
async function passwordAgain(page: Page, user: { email: string; password: string }) {
  // Leave the console first: a request it still has in flight, refused once the cookies are gone, would
  // send it to "Your session has timed out" and cut off this navigation.
  await page.goto('about:blank');
  await page.context().clearCookies();
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByLabel('Code')).toBeVisible();
}

test('an authenticator app signs in, a recovery code works once, and support resets the factors', async ({ page }) => {
  const user = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Surname').fill('Totp');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();
  await page.goto('/account');
  const { secret, codes } = await addAuthenticatorApp(page);
  await expect(page.getByRole('row', { name: /Authenticator app/ })).toBeVisible();

  await passwordAgain(page, user);
  await page.getByLabel('Code').fill(codeOf(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();

  const [recovery = ''] = codes;
  await passwordAgain(page, user);
  await page.getByLabel('Code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();
  await passwordAgain(page, user);
  await page.getByLabel('Code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter the code from your authenticator app');

  await page.context().clearCookies();
  await logInAsAdmin(page, `/users/${user.userId}`);
  await page.getByRole('button', { name: 'Reset second factors' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset second factors' }).click();
  await expect(page.getByText('were removed and they were told by email')).toBeVisible();
  await expect(page.getByText('No second factor')).toBeVisible();
});

test('a passkey from a virtual authenticator is added and signs a pharmacy user in', async ({ page }) => {
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  // A passkey belongs to a domain name, never an IP address: the console on localhost.
  const local = baseURL.replace('127.0.0.1', 'localhost');
  await page.goto(`${local}/auth/login`);
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Pia');
  await page.getByLabel('Surname').fill('Passkey');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.goto(`${local}/account`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Passkey name').fill('Laptop');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByRole('row', { name: /Laptop/ })).toBeVisible();

  await page.context().clearCookies();
  await page.goto(`${local}/auth/login`);
  await logIn(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();
  await page.goto(`${local}/account`);
  await expect(page.getByRole('row', { name: /Laptop/ })).not.toContainText('Never');
});

test('a user whose business requires a second factor is taken to set one up after the password', async ({ page }) => {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId: business.id,
    settings: { secondFactorRequired: true },
  });
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up a second factor' })).toBeVisible();
  await addAuthenticatorApp(page);
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Surname').fill('Setup');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Your account' })).toBeVisible();
});
