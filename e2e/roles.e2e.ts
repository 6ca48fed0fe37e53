import { expect, firstBusiness, logInAsAdmin, test, uniqueEmail } from './harness/fixtures.ts';

test.beforeEach(async ({ page }) => {
  await logInAsAdmin(page);
});

test('support staff give a Business role to a new person, then remove it', async ({ page }) => {
  const business = await firstBusiness();
  const email = uniqueEmail('pharmacist');

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Support Users' }).click();
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/\/users\/add\/support$/);

  await page.getByRole('button', { name: /Role/ }).click();
  await page.getByRole('option', { name: 'Business' }).click();
  await expect(page).toHaveURL(/\/users\/add\/business$/);

  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('First name').fill('Pat');
  await page.getByLabel('Surname').fill('Pharmacist');

  // Nothing is sent without a business.
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByText('Field is required')).toBeVisible();
  await expect(page).toHaveURL(/\/users\/add\/business$/);

  // The picker searches the server and is driven from the keyboard.
  const picker = page.getByRole('combobox', { name: 'Business' });
  await picker.fill(business.name);
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.getByRole('option', { name: new RegExp(business.name) })).toBeVisible();
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(picker).toHaveValue(business.name);
  await page.getByText('Add as a Business administrator').click();
  await expect(page.getByRole('checkbox', { name: 'Add as a Business administrator' })).toBeChecked();
  await page.getByRole('button', { name: 'Add role' }).click();

  // The user's page: profile, and the role with its business and access level.
  await expect(page.getByRole('heading', { level: 1, name: 'Pat Pharmacist' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const row = page.getByRole('row', { name: /Business/ });
  await expect(row.getByRole('link', { name: business.name })).toHaveAttribute('href', `/businesses/${business.id}`);
  await expect(row.getByText('Admin')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit identity provider' })).toHaveCount(0);

  // Keep role leaves it; Remove role removes it.
  await row.getByRole('button', { name: /Remove role Business/ }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove role?' });
  await dialog.getByRole('button', { name: 'Keep role' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: /Remove role Business/ }).click();
  await dialog.getByRole('button', { name: 'Remove role' }).click();
  await expect(page.getByText('The user has no roles')).toBeVisible();
});

test('a Support role shows the person in the Support Users list and search finds them', async ({ page }) => {
  const email = uniqueEmail('helper');
  await page.goto('/users/add/support');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('First name').fill('Hana');
  await page.getByLabel('Surname').fill('Helper');
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hana Helper' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Support/ }).getByText('*')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit identity provider' })).toBeVisible();

  // The identity provider dialog offers none (password) and saves the choice.
  await page.getByRole('button', { name: 'Edit identity provider' }).click();
  const idp = page.getByRole('dialog', { name: 'Edit identity provider' });
  await expect(idp.getByRole('button', { name: /Identity provider/ })).toContainText('None (password)');
  await idp.getByRole('button', { name: 'Save' }).click();
  await expect(idp).toHaveCount(0);
  await expect(page.getByText('Identity provider changed.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'None (password)' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Support Users' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(email);
  const table = page.getByRole('table', { name: 'Support users' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'Hana Helper' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('nobody-has-this-name');
  await expect(page.getByText('No users found.')).toBeVisible();
});

test('server validation messages show beside their fields', async ({ page }) => {
  await page.goto('/users/add/support');
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
});
