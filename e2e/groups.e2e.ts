import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createGroup,
  createUser,
  logInAsAdmin,
  test,
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

/** A 1x1 PNG. */
const smallPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** A PNG padded to 300 KB (the limit is 256 KB). */
const bigPng = Buffer.concat([smallPng, Buffer.alloc(300 * 1024 - smallPng.length)]);
const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]);

async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose image' }).click();
  await (await chooser).setFiles(file);
}

test.beforeEach(async ({ page }) => {
  await logInAsAdmin(page);
});

test('the groups list has tabs, a caution banner, search, clear filters and the right empty text', async ({ page }) => {
  const prefix = uniqueName('Listed');
  const active = await createGroup({ name: `${prefix} North` });
  const archived = await createGroup({ name: `${prefix} South` });
  await asAdmin('groups/archiveGroup', { id: archived.id });

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Groups' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expect(
    page.getByText('Caution: This is not the businesses page. This page is only for creating and editing groups'),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  await expect(
    page.getByRole('table', { name: 'Active groups' }).getByRole('link', { name: active.name }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: archived.name })).toHaveCount(0);

  await tab(page, 'Groups', 'Archived').click();
  // The tab is in the address, and so is the search kept across the tabs.
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === '/groups' && url.searchParams.get('archived') === 'true' && url.searchParams.get('q') === prefix,
  );
  await expect(
    page.getByRole('table', { name: 'Archived groups' }).getByRole('link', { name: archived.name }),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill(`${prefix} nobody`);
  await expect(page.getByText('No archived groups found.')).toBeVisible();
  await tab(page, 'Groups', 'Active').click();
  await expect(page.getByText('No active groups found.')).toBeVisible();

  // The filter is kept across a reload (local storage), and Clear filters empties it.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(`${prefix} nobody`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('table', { name: 'Active groups' })).toBeVisible();
});

test('a group is added, then given a logo: a PNG is accepted, a 300 KB PNG and a GIF are refused', async ({ page }) => {
  const name = uniqueName('Logo Group');
  await page.goto('/groups');
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Postcode').fill('not a postcode');
  await page.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByText('Invalid UK postcode')).toBeVisible();
  await page.getByLabel('Postcode').fill('LS1 4DY');
  await page.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Group added.')).toBeVisible();

  await tab(page, 'Group', 'Edit').click();
  await expect(page.getByText('JPEG or PNG, up to 256 KB. Recommended size 320x100 px.')).toBeVisible();

  await chooseFile(page, { name: 'big.png', mimeType: 'image/png', buffer: bigPng });
  await expect(page.getByText('Only files under 256 KB are accepted, your file has 300 KB.')).toBeVisible();
  await chooseFile(page, { name: 'logo.gif', mimeType: 'image/gif', buffer: gif });
  await expect(page.getByText('Only the following extensions are accepted: .jpg, .jpeg, .png')).toBeVisible();

  // A GIF named .png passes the browser's check; the server reads the bytes and refuses it.
  await chooseFile(page, { name: 'disguised.png', mimeType: 'image/png', buffer: gif });
  await expect(page.getByText('Only the following extensions are accepted')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Only the following extensions are accepted: .jpg, .jpeg, .png')).toBeVisible();

  await chooseFile(page, { name: 'logo.png', mimeType: 'image/png', buffer: smallPng });
  await expect(page.getByRole('img', { name: 'Logo preview' })).toBeVisible();
  const colour = page.getByRole('textbox', { name: 'Background colour' });
  await colour.fill('#003087');
  await colour.press('Tab');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText('Group saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/groups\/[^/]+$/);
  const logo = page.getByRole('img', { name: `${name} logo` });
  await expect(logo).toHaveAttribute('src', /\/files\/logos\//);
  await expect(logo.locator('..')).toHaveCSS('background-color', 'rgb(0, 48, 135)');
});

test('archiving a group asks first; an archived group shows a banner and warns before removing a business', async ({
  page,
}) => {
  const group = await createGroup();
  const business = await createBusiness();
  await asAdmin('businesses/linkGroup', { groupId: group.id, businessIds: [business.id] });

  await page.goto(`/groups/${group.id}`);
  await page.getByRole('button', { name: 'Archive' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Archive group?' });
  await expect(dialog).toContainText(`Do you want to archive the group ${group.name}?`);
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText('This group is archived')).toBeVisible();

  await tab(page, 'Group', 'Businesses').click();
  await expect(page.getByRole('button', { name: 'Link businesses' })).toBeDisabled();
  await page.getByRole('button', { name: `Remove ${business.name}` }).click();
  const remove = page.getByRole('alertdialog', { name: 'Remove business?' });
  await expect(remove).toContainText("You won't be able to add it back unless group is unarchived.");
  await remove.getByRole('button', { name: 'Remove business' }).click();
  await expect(page.getByText(`${business.name} removed from the group.`)).toBeVisible();
  await expect(page.getByText('No businesses found')).toBeVisible();

  await tab(page, 'Group', 'Details').click();
  await page.getByRole('button', { name: 'Unarchive' }).click();
  const unarchive = page.getByRole('alertdialog', { name: 'Unarchive group?' });
  await expect(unarchive).toContainText(`Do you want to unarchive the group ${group.name}?`);
  await unarchive.getByRole('button', { name: 'Unarchive' }).click();
  await expect(page.getByText('This group is archived')).toHaveCount(0);
});

test('businesses are linked to a group through the searchable modal', async ({ page }) => {
  const group = await createGroup();
  const prefix = uniqueName('Linkable');
  const first = await createBusiness({ name: `${prefix} One` });
  const second = await createBusiness({ name: `${prefix} Two` });

  await page.goto(`/groups/${group.id}/businesses`);
  await expect(page.getByText('No businesses found')).toBeVisible();
  await page.getByRole('button', { name: 'Link businesses' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link businesses' });
  await dialog.getByRole('searchbox', { name: 'Search businesses' }).fill(prefix);
  const options = dialog.getByRole('listbox', { name: 'Businesses to link' });
  await expect(options.getByRole('option')).toHaveCount(2);

  // Cancel links nothing.
  await options.getByRole('option', { name: new RegExp(first.name) }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('No businesses found')).toBeVisible();

  await page.getByRole('button', { name: 'Link businesses' }).click();
  await dialog.getByRole('searchbox', { name: 'Search businesses' }).fill(prefix);
  await options.getByRole('option', { name: new RegExp(first.name) }).click();
  await options.getByRole('option', { name: new RegExp(second.name) }).click();
  await expect(dialog.getByText('2 businesses chosen')).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('2 businesses linked.')).toBeVisible();

  const table = page.getByRole('table', { name: 'Group businesses' });
  await expect(table.getByRole('link', { name: first.name })).toHaveAttribute(
    'href',
    `/groups/${group.id}/businesses/${first.id}`,
  );
  await expect(table.getByRole('link', { name: second.name })).toBeVisible();
  await expect(table.getByText('1 High Street, Leeds, LS1 1AA').first()).toBeVisible();

  // Linked businesses leave the modal's list (they are in a group now).
  await page.getByRole('button', { name: 'Link businesses' }).click();
  await dialog.getByRole('searchbox', { name: 'Search businesses' }).fill(prefix);
  await expect(dialog.getByText('No businesses found')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await table.getByRole('link', { name: first.name }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${first.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: first.name })).toBeVisible();
});

test("a group's users show their access levels, search by prefix, and Add leads to a Group role", async ({ page }) => {
  const group = await createGroup();
  const user = await createUser({ role: { name: 'Group', resource: group.id, accessLevels: ['Admin'] } });

  await page.goto(`/groups/${group.id}/users`);
  const table = page.getByRole('table', { name: 'Group users' });
  const row = table.getByRole('row', { name: new RegExp(user.email) });
  await expect(row).toContainText('Admin');
  await expect(row.getByRole('link')).toHaveAttribute('href', `/groups/${group.id}/users/${user.userId}`);

  await page.getByRole('searchbox', { name: 'Search users' }).fill(user.email.slice(0, 12));
  await expect(row).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill('zz-nobody');
  await expect(page.getByText('No users found.')).toBeVisible();

  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/users/add/group/${group.id}$`));
  await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue(group.name);
});
