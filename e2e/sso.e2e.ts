import { startTestIdp, type TestIdp } from '../packages/api/src/testing/identity-providers/test-idp.ts';
import { expectAccessible } from './harness/axe.ts';
import {
  asAdmin,
  baseURL,
  createBusiness,
  createUser,
  expect,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * Single sign-on through a real OpenID provider (oidc-provider under Node, its own sign-in page): the
 * user types their email, lands on the provider's page, signs in there and arrives at the dashboard,
 * as support staff and as a pharmacy user; and a refusal is said in words on /auth/login.
 */

let idp: TestIdp;
let providerId: string;
test.beforeAll(async () => {
  idp = await startTestIdp([
    {
      client_id: 'medlocker-e2e',
      client_secret: 'e2e-idp-secret',
      redirect_uris: [`${baseURL}/api/auth/callback`, `${baseURL.replace('127.0.0.1', 'localhost')}/api/auth/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ]);
  const created = await asAdmin<{ id: string }>('identityProviders/create', {
    name: uniqueName('E2E OpenID'),
    type: 'OIDC',
    configuration: { issuerUrl: idp.issuer, clientId: 'medlocker-e2e', clientSecret: 'e2e-idp-secret' },
  });
  providerId = created.id;
});
test.afterAll(() => idp?.stop());

async function ssoUser(role: { name: 'Support' | 'Business'; resource?: string }): Promise<string> {
  const email = uniqueEmail(`sso-${role.name.toLowerCase()}`);
  await asAdmin('auth/addRoles', {
    addIdpByDefault: false,
    email,
    frontEnd: role.name === 'Support' ? 'support' : 'pharmacy',
    resourceId: role.resource ?? null,
    resourceType: role.resource ? 'business' : null,
    roles: [
      { name: role.name, resource: role.resource ?? null, accessLevels: role.name === 'Support' ? [] : ['Admin'] },
    ],
  });
  await asAdmin('auth/editIdentityProvider', {
    email,
    identityProviderId: providerId,
    frontEnd: role.name === 'Support' ? 'support' : 'pharmacy',
  });
  return email;
}

for (const who of ['support', 'pharmacy'] as const) {
  test(`a ${who} user signs in at their identity provider and arrives at the dashboard`, async ({ page }) => {
    const business = who === 'pharmacy' ? await createBusiness() : null;
    const email = await ssoUser(who === 'support' ? { name: 'Support' } : { name: 'Business', resource: business?.id });
    await page.goto('/auth/login');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    // The provider's own sign-in page.
    await expect(page.locator('input[name="login"]')).toBeVisible();
    expect(new URL(page.url()).origin).toBe(idp.issuer);
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('at-the-provider');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    // Back with us, signed in: a first sign-in names the user (SPEC §1), then the dashboard.
    await expect(page.getByLabel('First name')).toBeVisible();
    await expectAccessible(page, `${who} complete profile after SSO`);
    await page.getByLabel('First name').fill('Sso');
    await page.getByLabel('Surname').fill(who === 'support' ? 'Support' : 'Pharmacist');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectAccessible(page, `${who} dashboard after SSO`);
  });
}

test('a sign-in the provider confirms for an account we do not have is refused in words', async ({ page }) => {
  const email = await ssoUser({ name: 'Support' });
  await page.goto('/auth/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await page.locator('input[name="login"]').fill(uniqueEmail('stranger'));
  await page.locator('input[name="password"]').fill('at-the-provider');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByText('There is no account for this email address with your identity provider.')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/auth/login');
  await expectAccessible(page, 'login page after a refused SSO sign-in');
});

test('support staff add, test, edit and delete an identity provider; pharmacy users cannot reach it', async ({
  page,
  browser,
}) => {
  await logInAsAdmin(page, '/identityProviders');
  await expect(page.getByRole('heading', { level: 1, name: 'Identity Providers' })).toBeVisible();
  await expectAccessible(page, 'identity providers list');
  await page.getByRole('link', { name: 'Add identity provider' }).click();
  // Saved empty: every required field is flagged at once, in SPEC's words; nothing is added.
  await page.getByRole('button', { name: 'Save' }).click();
  for (const label of ['Name', 'Issuer URL', 'Client id']) {
    await expect(page.getByRole('textbox', { name: label })).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(page.getByText('Please enter a value')).toHaveCount(3);
  await expect(page).toHaveURL(/\/identityProviders\/add$/);
  const name = uniqueName('Console OpenID');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Issuer URL').fill(idp.issuer);
  await page.getByLabel('Client id').fill('medlocker-e2e');
  await page.getByLabel('Client secret').fill('e2e-idp-secret');
  await expectAccessible(page, 'add identity provider form');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Identity provider saved.')).toBeVisible();
  // The full redirect URI to register at the provider, not a path.
  await expect(page.getByText(`${baseURL}/api/auth/callback`, { exact: true })).toBeVisible();
  await expect(page.getByText('e2e-idp-secret')).toHaveCount(0);
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('The provider is set up correctly.')).toBeVisible();
  await expect(page.getByText(`Found issuer ${idp.issuer}`)).toBeVisible();
  await expectAccessible(page, 'identity provider after a test');

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Issuer URL').fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('The provider has problems:')).toBeVisible();
  await expect(page.getByText(/Discovery at http:\/\/127\.0\.0\.1:9 failed/)).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete provider' }).click();
  await expect(page.getByText('Identity provider deleted.')).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);

  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  const context = await browser.newContext();
  const pharmacy = await context.newPage();
  await signInAsNew(pharmacy, user);
  await pharmacy.goto('/identityProviders');
  await expect(pharmacy.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await context.close();
});

test("a SAML provider's page shows our service-provider metadata to give the IdP", async ({ page }) => {
  const { id } = await asAdmin<{ id: string }>('identityProviders/create', {
    name: uniqueName('E2E SAML'),
    type: 'SAML',
    configuration: { ssoUrl: 'https://idp.example/sso', certificate: 'MIIB', entityId: 'https://idp.example' },
  });
  await logInAsAdmin(page, `/identityProviders/${id}`);
  await expect(page.getByRole('heading', { name: 'Our service-provider metadata' })).toBeVisible();
  await expect(page.getByText(`entityID="${baseURL}/sso/saml/${id}"`, { exact: false })).toBeVisible();
  await expectAccessible(page, 'SAML provider page');
});
