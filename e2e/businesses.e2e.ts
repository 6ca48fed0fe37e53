import type { Page } from '@playwright/test';
import { formatLongDate } from '../packages/core/src/format/date.ts';
import {
  admin,
  asAdmin,
  expect as baseExpect,
  baseURL,
  createBusiness,
  logIn,
  logInAsAdmin,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

// A full page load evaluates core's contract (arktype types): several seconds on a loaded machine.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

/** A tab of a page's tab row (react-aria tabs that are links). */
const tab = (page: Page, list: string, name: string) =>
  page
    .getByRole('tablist', { name: list })
    .getByRole('tab', { name })
    .or(page.getByRole('navigation', { name: list }).getByRole('link', { name }));

test.beforeEach(async ({ page }) => {
  await logInAsAdmin(page);
});

test('the businesses list has Active and Archived tabs and a search kept for the session', async ({ page }) => {
  const prefix = uniqueName('Tabs');
  const active = await createBusiness({ name: `${prefix} Active` });
  const archived = await createBusiness({ name: `${prefix} Gone` });
  await asAdmin('businesses/archiveBusiness', { id: archived.id });

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  const activeTable = page.getByRole('table', { name: 'Active businesses' });
  await expect(activeTable.getByRole('link', { name: active.name })).toBeVisible();
  await expect(activeTable.getByRole('link', { name: archived.name })).toHaveCount(0);

  await tab(page, 'Businesses', 'Archived').click();
  // The tab is in the address, and so is the search kept across the tabs.
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === '/businesses' &&
      url.searchParams.get('archived') === 'true' &&
      url.searchParams.get('q') === prefix,
  );
  const archivedTable = page.getByRole('table', { name: 'Archived businesses' });
  await expect(archivedTable.getByRole('link', { name: archived.name })).toBeVisible();
  await expect(archivedTable.getByRole('link', { name: active.name })).toHaveCount(0);

  // The search is still there after visiting another page.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Businesses' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(prefix);
  await expect(
    page.getByRole('table', { name: 'Active businesses' }).getByRole('link', { name: active.name }),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill(`${prefix} nobody`);
  await expect(page.getByText('No businesses found')).toBeVisible();
});

test('support staff add a business, with a refused postcode first, then edit its contacts', async ({ page }) => {
  const name = uniqueName('Added Pharmacy');
  await page.goto('/businesses');
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/\/businesses\/add$/);

  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('added'));
  await page.getByLabel('Address line 1').fill('2 Market Street');
  await page.getByLabel('Post town').fill('York');
  await page.getByLabel('Postcode').fill('NOT A CODE');
  await page.getByRole('button', { name: 'Add business' }).click();
  await expect(page.getByText('Invalid UK postcode')).toBeVisible();
  await expect(page).toHaveURL(/\/businesses\/add$/);

  await page.getByLabel('Postcode').fill('yo1 7hh');
  await page.getByRole('button', { name: 'Add business' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Business added.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '2 Market Street, York, YO1 7HH' })).toBeVisible();

  // Edit: the same mobile twice, and one that is not a UK mobile, are refused beside the item.
  await tab(page, 'Business', 'Edit').click();
  await expect(page).toHaveURL(/\/edit$/);
  await page.getByRole('button', { name: 'Add mobile number' }).click();
  await page.getByLabel('Mobile number 1', { exact: true }).fill('07700 900123');
  await page.getByRole('button', { name: 'Add mobile number' }).click();
  await page.getByLabel('Mobile number 2', { exact: true }).fill('+447700900123');
  await page.getByRole('button', { name: 'Add mobile number' }).click();
  await page.getByLabel('Mobile number 3', { exact: true }).fill('12345');
  await page.getByRole('button', { name: 'Add email address' }).click();
  await page.getByLabel('Email address 1', { exact: true }).fill('alerts@example.com');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Invalid UK mobile number')).toBeVisible();

  await page.getByRole('button', { name: 'Remove mobile number 3' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Item with value +447700900123 already exists')).toBeVisible();

  await page.getByRole('button', { name: 'Remove mobile number 2' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Business saved.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '+447700900123' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'alerts@example.com' })).toBeVisible();
});

test('archiving a business asks first, then warns with the date and who archived it', async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}`);
  await expect(page.getByRole('heading', { level: 1, name: business.name })).toBeVisible();

  await page.getByRole('button', { name: 'Archive' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Archive business?' });
  await expect(dialog).toContainText(`Do you want to archive the business ${business.name}?`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('This business is archived')).toHaveCount(0);

  await page.getByRole('button', { name: 'Archive' }).click();
  await dialog.getByRole('button', { name: 'Archive' }).click();
  const warning = page.getByRole('alert').filter({ hasText: 'This business is archived' });
  await expect(warning).toContainText(new RegExp(`archived on ${formatLongDate(Date.now())} by \\S`));

  // Archived businesses cannot be edited.
  await tab(page, 'Business', 'Edit').click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(page.getByLabel('Name')).toBeDisabled();

  await tab(page, 'Business', 'Details').click();
  await page.getByRole('button', { name: 'Unarchive' }).click();
  await page
    .getByRole('alertdialog', { name: 'Unarchive business?' })
    .getByRole('button', { name: 'Unarchive' })
    .click();
  await expect(page.getByText('Business unarchived.')).toBeVisible();
  await expect(page.getByText('This business is archived')).toHaveCount(0);
});

test('a second browser sees a business archived and unarchived without reloading', async ({ page, browser }) => {
  const business = await createBusiness();
  const other = await browser.newContext({ baseURL });
  const second = await other.newPage();
  await second.goto('/auth/login');
  await logIn(second, admin.email, admin.password);
  await expect(second.getByRole('region', { name: 'Your account' })).toBeVisible({ timeout: 30_000 });
  await second.goto(`/businesses/${business.id}`);
  await expect(second.getByRole('heading', { level: 1, name: business.name })).toBeVisible();

  await page.goto(`/businesses/${business.id}`);
  await page.getByRole('button', { name: 'Archive' }).click();
  await page.getByRole('alertdialog', { name: 'Archive business?' }).getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText('This business is archived')).toBeVisible();

  await expect(second.getByText('This business is archived')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Unarchive' })).toBeVisible();

  await asAdmin('businesses/unarchiveBusiness', { id: business.id });
  await expect(second.getByText('This business is archived')).toHaveCount(0);
  await other.close();
});

test("a business's users page lists its people and adds one with a Business role", async ({ page }) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/users`);
  await expect(page.getByText('No users found.')).toBeVisible();

  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/users/add/business/${business.id}$`));
  const email = uniqueEmail('staff');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('First name').fill('Bea');
  await page.getByLabel('Surname').fill('Business');
  await page.getByRole('button', { name: 'Add role' }).click();
  // Back where they started, the business's Users tab, with the business highlighted in the menu.
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/users$`));
  await expect(page.getByText(`Business role added for ${email}.`)).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Support Users' }),
  ).not.toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: 'Business users' });
  await expect(table.getByRole('link', { name: 'Bea Business' })).toHaveAttribute(
    'href',
    new RegExp(`/businesses/${business.id}/users/`),
  );
  await page.getByRole('searchbox', { name: 'Search users' }).fill('zz-nobody');
  await expect(page.getByText('No users found.')).toBeVisible();
});
