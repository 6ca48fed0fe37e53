import {
  admin,
  asAdmin,
  call,
  createBusiness,
  createMachine,
  expect,
  logInAsAdmin,
  signedInApi,
  test,
} from './harness/fixtures.ts';

/** `count` support users whose addresses start with a fresh prefix (to search by), and the prefix. */
async function supportUsers(count: number, label: string): Promise<string> {
  const prefix = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const api = await signedInApi(admin.email, admin.password);
  try {
    for (let i = 0; i < count; i++) {
      await call(api, 'auth/addRoles', {
        addIdpByDefault: false,
        email: `${prefix}-${String(i).padStart(2, '0')}@e2e.medlocker.test`,
        frontEnd: 'support',
        roles: [{ name: 'Support', accessLevels: [] }],
      });
    }
  } finally {
    await api.dispose();
  }
  return prefix;
}

async function supportUsersPage(page: import('@playwright/test').Page) {
  await logInAsAdmin(page, '/users');
  return page.getByRole('table', { name: 'Support users' });
}

test('a search field has one clear button: the browser’s own × is not drawn beside it', async ({ page }) => {
  await supportUsersPage(page);
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('someone');
  // Where Chromium draws its own clear button: the end of the text area, left of the field's padding.
  const box = await search.boundingBox();
  const paddingRight = await search.evaluate((el) => Number.parseFloat(getComputedStyle(el).paddingRight));
  if (!box) throw new Error('the search field has no box');
  await page.mouse.click(box.x + box.width - paddingRight - 6, box.y + box.height / 2);
  await expect(search).toHaveValue('someone');
  await expect(page.getByRole('button', { name: 'Clear search' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(search).toHaveValue('');
});

test('the paging footer shows only when a list has more than one page', async ({ page }) => {
  test.setTimeout(90_000);
  const few = await supportUsers(3, 'few');
  const many = await supportUsers(27, 'many');
  const table = await supportUsersPage(page);
  const search = page.getByRole('searchbox', { name: 'Search' });
  // The footer (count and Show more) sits under the table, outside it: a table holds rows only.
  const more = page.getByRole('button', { name: 'Show more' });

  await search.fill(few);
  await expect(table.getByRole('link', { name: `${few}-02@e2e.medlocker.test` })).toBeVisible();
  await expect(more).toHaveCount(0);
  await expect(page.getByText(/\d+ shown/)).toHaveCount(0);

  await search.fill(many);
  await expect(table.getByRole('link', { name: `${many}-00@e2e.medlocker.test` })).toBeVisible();
  await expect(page.getByText('25 shown')).toBeVisible();
  await more.click();
  await expect(table).toHaveAttribute('aria-rowcount', String(27 + 1));
  await expect(more).toHaveCount(0);
});

test('on a phone (under 576 px) a list becomes cards, each value under its column’s name', async ({ page }) => {
  const prefix = await supportUsers(2, 'cards');
  await page.setViewportSize({ width: 390, height: 844 });
  const table = await supportUsersPage(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  const email = `${prefix}-01@e2e.medlocker.test`;
  const card = table.getByRole('row').filter({ hasText: email });
  await expect(card).toBeVisible();
  // Measured once the search has narrowed the list: until then the card moves up as rows above it go.
  await expect(table).toHaveAttribute('aria-rowcount', String(2 + 1));
  await expect(table.getByRole('columnheader', { name: 'Email' })).toBeHidden();
  await expect(card.getByText('Email', { exact: true })).toBeVisible();
  // The value sits under its name, not beside it, and the card is no wider than the screen.
  const label = await card.getByText('Email', { exact: true }).boundingBox();
  const value = await card.getByText(email).last().boundingBox();
  expect(value?.y ?? 0).toBeGreaterThan(label?.y ?? 0);
  expect((await card.boundingBox())?.width ?? 1000).toBeLessThanOrEqual(390);

  // On a wide screen the same list is a table with column headers and no names in the rows.
  await page.setViewportSize({ width: 1200, height: 800 });
  await expect(table.getByRole('columnheader', { name: 'Email' })).toBeVisible();
  await expect(card.getByText('Email', { exact: true })).toHaveCount(0);
});

test('a list’s search is kept in the URL: a link with ?q= opens the same results, and typing updates it', async ({
  page,
}) => {
  const prefix = await supportUsers(2, 'url');
  await supportUsersPage(page);
  await page.goto(`/users?q=${encodeURIComponent(prefix)}`);
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toHaveValue(prefix);
  const table = page.getByRole('table', { name: 'Support users' });
  await expect(table.getByRole('link', { name: `${prefix}-01@e2e.medlocker.test` })).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', String(2 + 1));

  await search.fill(`${prefix}-00`);
  await expect(page).toHaveURL(new RegExp(`/users\\?q=${prefix}-00$`));
  await expect(table).toHaveAttribute('aria-rowcount', String(1 + 1));

  // Kept for the session too: back from another page, the list still has it.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Support Users' }).click();
  await expect(search).toHaveValue(`${prefix}-00`);
});

test('a list’s other filters are kept in the URL: a reload, Back and a shared link keep them', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  await createMachine(business.id, 'Front Locker');
  const archived = await createMachine(business.id, 'Old Locker');
  await asAdmin('machines/toggleArchive', { id: archived.id });
  await logInAsAdmin(page, `/businesses/${business.id}/machines`);
  const table = page.getByRole('table', { name: 'Machines' });
  const showArchived = page.getByRole('switch', { name: 'Show archived' });
  const toggle = page.locator('label.switch', { hasText: 'Show archived' });
  await expect(table.getByRole('link', { name: 'Front Locker' })).toBeVisible();

  await toggle.click();
  await expect(page).toHaveURL(/\/machines\?archived=true$/);
  await expect(table.getByRole('link', { name: 'Old Locker' })).toBeVisible();
  await page.reload();
  await expect(showArchived).toBeChecked();
  await expect(table.getByRole('link', { name: 'Old Locker' })).toBeVisible();

  // Back from a machine's page finds the list as it was.
  await table.getByRole('link', { name: 'Old Locker' }).click();
  await expect(page.getByRole('heading', { name: 'Old Locker' })).toBeVisible();
  await page.goBack();
  await expect(showArchived).toBeChecked();
  await expect(table.getByRole('link', { name: 'Old Locker' })).toBeVisible();

  // The address is a link someone else can open: the same filter, in a browser that never set it.
  const url = page.url();
  const other = await browser.newContext();
  const second = await other.newPage();
  await logInAsAdmin(second);
  await second.goto(url);
  await expect(second.getByRole('switch', { name: 'Show archived' })).toBeChecked();
  await expect(second.getByRole('table', { name: 'Machines' }).getByRole('link', { name: 'Old Locker' })).toBeVisible();
  await other.close();

  // Switched off: the address drops it, and the archived machine goes.
  await toggle.click();
  await expect(page).toHaveURL(/\/machines$/);
  await expect(table.getByRole('link', { name: 'Old Locker' })).toHaveCount(0);
});

test('a machine’s event filters are kept in the URL', async ({ page }) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id, 'Filter Locker');
  await logInAsAdmin(page, `/businesses/${business.id}/machines/${machine.id}?level=critical&code=EM_0016`);
  await expect(page.getByRole('button', { name: /Level/ })).toContainText('critical');
  await expect(page.getByRole('combobox', { name: 'Code' })).toHaveValue('EM_0016 AlarmTriggered');
  await expect(page.getByText('No events match these filters.')).toBeVisible();

  await page.getByRole('button', { name: /Level/ }).click();
  await page.getByRole('option', { name: 'warn' }).click();
  await expect(page).toHaveURL(/level=warn/);
  await page.reload();
  await expect(page.getByRole('button', { name: /Level/ })).toContainText('warn');
  await expect(page.getByRole('combobox', { name: 'Code' })).toHaveValue('EM_0016 AlarmTriggered');
});
