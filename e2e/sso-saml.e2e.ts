import { type SamlIdp, startSamlIdp } from '../packages/api/src/testing/identity-providers/saml-idp.ts';
import { expectAccessible } from './harness/axe.ts';
import { asAdmin, createBusiness, expect, test, uniqueEmail, uniqueName } from './harness/fixtures.ts';

/*
 * Single sign-on through a SAML IdP over HTTP (packages/api/src/testing/identity-providers/saml-idp.ts, on `localhost`
 * so its POST back is cross-site as with a real IdP): the user types their email, lands on the IdP's
 * sign-in page, signs in there, the IdP's page posts the signed response to our ACS by script, and the
 * browser arrives at the dashboard through the same-site continuation; as support and as a pharmacy user.
 */

let idp: SamlIdp;
let providerId: string;
test.beforeAll(async () => {
  idp = await startSamlIdp();
  const created = await asAdmin<{ id: string }>('identityProviders/create', {
    name: uniqueName('E2E SAML IdP'),
    type: 'SAML',
    configuration: { ssoUrl: idp.ssoUrl, certificate: idp.cert, entityId: idp.entityId },
  });
  providerId = created.id;
});
test.afterAll(() => idp?.stop());

async function samlUser(role: { name: 'Support' | 'Business'; resource?: string }): Promise<string> {
  const email = uniqueEmail(`saml-${role.name.toLowerCase()}`);
  const frontEnd = role.name === 'Support' ? 'support' : 'pharmacy';
  await asAdmin('auth/addRoles', {
    addIdpByDefault: false,
    email,
    frontEnd,
    resourceId: role.resource ?? null,
    resourceType: role.resource ? 'business' : null,
    roles: [
      { name: role.name, resource: role.resource ?? null, accessLevels: role.name === 'Support' ? [] : ['Admin'] },
    ],
  });
  await asAdmin('auth/editIdentityProvider', { email, identityProviderId: providerId, frontEnd });
  return email;
}

for (const who of ['support', 'pharmacy'] as const) {
  test(`a ${who} user signs in at their SAML IdP and arrives at the dashboard`, async ({ page }) => {
    const business = who === 'pharmacy' ? await createBusiness() : null;
    const email = await samlUser(
      who === 'support' ? { name: 'Support' } : { name: 'Business', resource: business?.id },
    );
    await page.goto('/auth/login');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    // The IdP's own sign-in page.
    await expect(page.getByRole('heading', { name: 'Test IdP sign-in' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(new URL(idp.ssoUrl).origin);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('at-the-idp');
    await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
    // Posted back, continued in this browser, signed in: a first sign-in names the user, then the dashboard.
    await expect(page.getByLabel('First name')).toBeVisible();
    await page.getByLabel('First name').fill('Saml');
    await page.getByLabel('Surname').fill(who === 'support' ? 'Support' : 'Pharmacist');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });
}

test('a SAML response continued in another browser is refused there, and the sign-in finishes in the browser that began it', async ({
  page,
  browser,
}) => {
  const email = await samlUser({ name: 'Support' });
  // Keep the ACS's answer instead of following it, as an attacker keeps the link their own response earned:
  // the IdP's form is posted from here, the 303 to the continuation is read and not followed.
  let continuation = '';
  await page.route('**/sso/saml/*/acs', async (route) => {
    const answer = await route.fetch({ maxRedirects: 0 });
    continuation = new URL(answer.headers().location ?? '', route.request().url()).toString();
    await route.abort();
  });
  await page.goto('/auth/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Test IdP sign-in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('at-the-idp');
  await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
  await expect.poll(() => continuation).toContain('ticket=');

  // The victim's browser (no sign-in of its own begun) is sent there: refused, not signed in.
  const other = await browser.newContext();
  const victim = await other.newPage();
  await victim.goto(continuation);
  await expect(
    victim.getByText('This sign-in was started in another browser. Please sign in again here.'),
  ).toBeVisible();
  await expectAccessible(victim, 'SAML continuation refused in another browser');
  await victim.goto('/');
  await expect(victim).toHaveURL(/\/auth\/login/);
  await other.close();

  // The continuation was left untouched: the browser that began the sign-in still finishes it.
  await page.unroute('**/sso/saml/*/acs');
  await page.goto(continuation);
  await expect(page.getByLabel('First name')).toBeVisible();
  await expectAccessible(page, 'complete profile after SAML sign-in');
});
