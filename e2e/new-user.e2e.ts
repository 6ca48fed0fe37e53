import { createBusiness, expect, logInAsAdmin, test, uniqueName } from './harness/fixtures.ts';

/** What a new user trips over, tried as they would. */

test('the sign-in page logs nothing in the browser console on a first visit', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
  });
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByLabel('Email address')).toBeVisible();
  // Give a late session check time to answer (and be logged) before looking.
  await page.waitForLoadState('networkidle');
  expect(messages).toEqual([]);
});

test('leaving a form with unsaved changes asks first; staying keeps them, leaving drops them', async ({ page }) => {
  await logInAsAdmin(page, '/groups/add');
  const name = uniqueName('Unsaved Group');
  await page.getByLabel('Name').fill(name);

  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Businesses' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/groups\/add$/);
  await expect(page.getByLabel('Name')).toHaveValue(name);

  // A reload or closing the tab gets the browser's own question.
  const question = page.waitForEvent('dialog');
  void page.reload().catch(() => {});
  const dialog = await question;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await expect(page.getByLabel('Name')).toHaveValue(name);

  await menu.getByRole('link', { name: 'Businesses' }).click();
  await ask.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  // Nothing is asked once the changes are gone.
  await menu.getByRole('link', { name: 'Groups' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
});

test('a saved form leaves without a question, and an untouched one too', async ({ page }) => {
  await logInAsAdmin(page, '/groups/add');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();

  await page.goto('/groups/add');
  const name = uniqueName('Saved Group');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Postcode').fill('LS1 4DY');
  await page.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await menu.getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('the browser’s Back button asks too when a form has unsaved changes', async ({ page }) => {
  await logInAsAdmin(page, '/groups');
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/\/groups\/add$/);
  const name = uniqueName('Back Group');
  await page.getByLabel('Name').fill(name);

  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await page.evaluate(() => history.back());
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/groups\/add$/);
  await expect(page.getByLabel('Name')).toHaveValue(name);

  await page.evaluate(() => history.back());
  await ask.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/groups$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  // Forward and Back again, nothing edited: no question.
  await page.evaluate(() => history.forward());
  await expect(page).toHaveURL(/\/groups\/add$/);
  await page.evaluate(() => history.back());
  await expect(page).toHaveURL(/\/groups$/);
  await expect(ask).toHaveCount(0);
});

test('a change made only with a Select counts as unsaved', async ({ page }) => {
  const business = await createBusiness();
  await logInAsAdmin(page, `/businesses/${business.id}/settings/features`);
  await page.getByRole('button', { name: 'SMS gateway' }).click();
  await page.getByRole('option', { name: 'The SMS Works' }).click();
  await expect(page.getByRole('button', { name: 'SMS gateway' })).toContainText('The SMS Works');

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Groups' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/settings\/features$/);
  await expect(page.getByRole('button', { name: 'SMS gateway' })).toContainText('The SMS Works');
});
