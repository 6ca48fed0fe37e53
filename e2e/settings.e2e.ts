// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are what these templates are made of.
import { asAdmin, expect as baseExpect, createBusiness, logInAsAdmin, test, uniqueName } from './harness/fixtures.ts';

// A full page load evaluates core's contract (arktype types): several seconds on a loaded machine.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }) => {
  await logInAsAdmin(page);
});

test('feature settings refuse a 12-character sender ID and save a good one', async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/settings`);
  await page.getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/settings\/features$/);

  const sender = page.getByLabel('SMS sender ID');
  await sender.fill('ABCDEFGHIJKL');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText(
      'The Sender ID must be 1-11 alpha-numeric or hyphen (-) characters. It has to start and end with an alphanumeric character',
    ),
  ).toBeVisible();

  await sender.fill('High St 24');
  await page.getByText('Prescription charges', { exact: true }).click();
  await page.getByRole('button', { name: 'SMS gateway' }).click();
  await page.getByRole('option', { name: 'The SMS Works' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Feature settings saved.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel('SMS sender ID')).toHaveValue('High St 24');
  await expect(page.getByRole('switch', { name: 'Prescription charges' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'SMS gateway' })).toContainText('The SMS Works');
});

test('SMS templates preview live and refuse an order-ready message without ${pin}', async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/settings/sms`);

  const collected = page.getByRole('textbox', { name: 'Order collected' });
  const preview = page.getByRole('figure', { name: 'Order collected preview' });
  await collected.fill('x'.repeat(161));
  await expect(preview).toContainText('Example SMS (161 letters / 2 pages)');
  await collected.fill('Thanks for collecting from ${businessName}.');
  await expect(preview).toContainText('Thanks for collecting from Example Pharmacy.');
  await expect(preview).toContainText('Example SMS (44 letters / 1 page)');

  await page.getByRole('textbox', { name: 'Order ready' }).fill('Your order is ready, collect by ${expires}.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Missing ${pin} placeholder')).toBeVisible();

  await page
    .getByRole('textbox', { name: 'Order ready' })
    .fill('Your order is ready. PIN ${pin}, collect by ${expires}.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SMS templates saved.')).toBeVisible();
  // Away and back within the app: the form starts from a new read, not the answer from before the save.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'SMS templates' }).click();
  await expect(page.getByRole('textbox', { name: 'Order ready' })).toHaveValue(
    'Your order is ready. PIN ${pin}, collect by ${expires}.',
  );
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Order collected' })).toHaveValue(
    'Thanks for collecting from ${businessName}.',
  );
  await expect(page.getByRole('figure', { name: 'Order ready preview' })).toContainText('PIN 1234 5678');
});

test('payment settings refuse a 7-character secret and confirm the changed fields before saving', async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/settings/payment`);

  await page.getByLabel('Contact number').fill('0113 496 0000');
  await page.getByLabel('Legal information').fill('Example Pharmacy Ltd, company 01234567');
  await page.getByRole('button', { name: 'Card payment provider' }).click();
  await page.getByRole('option', { name: 'Judopay' }).click();
  await page.getByLabel('Judo ID').fill('100200300');
  await page.getByLabel('API token', { exact: true }).fill('token-12345');
  await page.getByLabel('API secret', { exact: true }).fill('1234567');
  // Typed hidden, as passwords are; Show reveals what was typed, to check it, and hides it again.
  for (const name of ['API token', 'API secret']) {
    await expect(page.getByLabel(name, { exact: true })).toHaveAttribute('type', 'password');
  }
  const showToken = page.getByRole('button', { name: 'Show API token' });
  await showToken.click();
  await expect(showToken).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('API token', { exact: true })).toHaveAttribute('type', 'text');
  await expect(page.getByLabel('API token', { exact: true })).toHaveValue('token-12345');
  await showToken.click();
  await expect(page.getByLabel('API token', { exact: true })).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Value must be at least 8 characters long')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await page.getByLabel('API secret', { exact: true }).fill('secret-12345');
  await page.getByRole('button', { name: 'Save' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Save payment settings?' });
  for (const field of ['Contact number', 'Legal information', 'Card payment provider', 'Judo ID', 'API secret']) {
    await expect(confirm.getByRole('listitem').filter({ hasText: field })).toBeVisible();
  }
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);

  await page.getByRole('button', { name: 'Save' }).click();
  await confirm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payment settings saved.')).toBeVisible();

  // The secret comes back masked; changing only the contact number lists only that.
  await page.reload();
  await expect(page.getByLabel('API secret', { exact: true })).toHaveValue(/^\*+/);
  await expect(page.getByLabel('API secret', { exact: true })).not.toHaveValue('secret-12345');
  await page.getByLabel('Contact number').fill('0113 496 0001');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(confirm.getByRole('listitem')).toHaveText(['Contact number']);
  await confirm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payment settings saved.')).toBeVisible();
});

test('the integration client secret is shown in full once, then masked', async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/settings/integration`);

  await page.getByRole('button', { name: 'Integration partner' }).click();
  const partner = page.getByRole('option').first();
  const partnerName = (await partner.textContent()) ?? '';
  await partner.click();
  await expect(page.getByLabel('Name')).toHaveValue(partnerName);
  await expect(page.getByLabel('Contact email')).not.toHaveValue('');
  // The rate limit stays within 200 to 3600 requests an hour.
  const rateLimit = page.getByRole('textbox', { name: 'Rate limit (requests per hour)' });
  await rateLimit.fill('5000');
  await rateLimit.press('Tab');
  await expect(rateLimit).toHaveValue('3,600');
  await rateLimit.fill('600');
  await page.getByRole('button', { name: 'Add integration' }).click();
  await expect(page.getByText('Integration added.')).toBeVisible();

  await page.getByRole('button', { name: 'Generate client secret' }).click();
  const reveal = page.getByRole('alert').filter({ hasText: 'Your new client secret' });
  await expect(reveal).toContainText('it will not be shown again');
  await expect(reveal.getByRole('button', { name: 'Copy' })).toBeVisible();
  const secret = (await reveal.locator('code').textContent()) ?? '';
  expect(secret.length).toBeGreaterThan(16);
  expect(secret.startsWith('*')).toBe(false);

  await page.reload();
  await expect(page.getByText('Your new client secret')).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  const masked = page.getByRole('definition').filter({ hasText: /^\*/ }).first();
  await expect(masked).toBeVisible();
});

test("an archived business's settings are read-only", async ({ page }) => {
  const business = await createBusiness();
  await asAdmin('businesses/archiveBusiness', { id: business.id });
  await page.goto(`/businesses/${business.id}/settings/features`);
  await expect(page.getByText('This business is archived, so its settings are read-only.')).toBeVisible();
  await expect(page.getByLabel('SMS sender ID')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
});

test('global settings take the charge in pounds, refuse 9.999 and show £9.90', async ({ page }) => {
  await page.goto('/globalSettings');
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/globalSettings\/edit$/);
  const charge = page.getByLabel('NHS prescription charge (£)');
  await expect(charge).toHaveAttribute('placeholder', '9.80');
  await charge.fill('9.999');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter a valid amount, e.g. “9.99”')).toBeVisible();

  await charge.fill('9.90');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/globalSettings$/);
  await expect(page.getByRole('definition').first()).toHaveText('£9.90');
  const saved = await asAdmin<{ settings: { nhsPrescriptionCharge: number } }>('globalSettings/getGlobalSettings');
  expect(saved.settings.nhsPrescriptionCharge).toBe(990);
});

test('alarm message templates are shown and reworded', async ({ page }) => {
  const wording = `${uniqueName('Check the collector of')} \${machineAndBusiness}. Go to \${supportArticle} to find the fix.`;
  await page.goto('/alarmMessageTemplates');
  await expect(page.getByText(/An item has been left in the collector/)).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  const em1 = page.getByRole('textbox', { name: /EM_0001/ });
  await em1.fill('Broken ${nonsense}');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Unknown placeholder ${nonsense}')).toBeVisible();
  await em1.fill(wording);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/alarmMessageTemplates$/);
  await expect(page.getByText('Alarm message templates saved.')).toBeVisible();
  await expect(page.getByText(wording)).toBeVisible();
});
