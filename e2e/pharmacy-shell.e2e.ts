import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createGroup,
  createMachine,
  createUser,
  logInAsAdmin,
  type SimulatedLocker,
  signInAsNew as signInNamed,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * The pharmacy console's shell: the pharmacy menu of the current business, the business
 * switcher, the pharmacy dashboard, and the top bar's order finder for support and pharmacy users.
 */

// Several sign-ins, a locker and a dozen page loads each: the shared machine is slow.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

let locker: SimulatedLocker | undefined;

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** Signs a freshly invited pharmacy user in; pharmacy users start at their own dashboard. */
async function signInAsNew(page: Page, user: { email: string; password: string }) {
  await signInNamed(page, user);
  await expect(page).toHaveURL(/\/$/);
}

/** A patient and an order for them in `businessId`, made through the API as support staff would. */
async function createOrder(businessId: string, barcode: string) {
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: `P-${barcode}`,
      name: { given: 'Olive', family: 'Ordway' },
      mobileNumber: '07700 900123',
    },
  });
  const { order } = await asAdmin<{
    order: { id: string; reference: string; patientName: string; barcode: string };
  }>('orders/create', {
    businessId,
    patientId: patient.id,
    barcode,
  });
  return order;
}

const finder = (page: Page) => page.getByRole('combobox', { name: 'Find an order' });

/**
 * Signs in a new Group Admin of a group of two new businesses (both businesses, and their Users and
 * Settings): `start` is the business their dashboard opened with, `other` the one to switch to.
 */
async function signInAsAdminOfTwo(page: Page) {
  const group = await createGroup();
  const first = await createBusiness();
  const second = await createBusiness();
  await asAdmin('businesses/linkGroup', { groupId: group.id, businessIds: [first.id, second.id] });
  const user = await createUser({ role: { name: 'Group', resource: group.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const switcher = page.locator('#side-menu').getByRole('button', { name: /Business/ });
  await expect(page.getByText(/ at a glance\.$/)).toBeVisible();
  const startsWithFirst = ((await switcher.textContent()) ?? '').includes(first.name);
  const [start, other] = startsWithFirst ? [first, second] : [second, first];
  return { menu, switcher, start, other };
}

test('a pharmacy user of two businesses gets the pharmacy menu and switches business, address and links following', async ({
  page,
}) => {
  const { menu, switcher, start, other } = await signInAsAdminOfTwo(page);
  await expect(menu.getByRole('link')).toHaveText([
    'Dashboard',
    'Orders',
    'Patients',
    'Machines',
    'Users',
    'Settings',
    'Audit trail',
  ]);
  // Support's entries are not theirs.
  await expect(menu.getByRole('link', { name: 'Businesses' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Global Settings' })).toHaveCount(0);

  await expect(menu.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', `/businesses/${start.id}/orders`);
  await expect(page.getByText(`${start.name} at a glance.`)).toBeVisible();

  // From the first business's orders, switching opens the other's orders; the links follow.
  await menu.getByRole('link', { name: 'Orders' }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${start.id}/orders$`));
  await switcher.click();
  await page.getByRole('option', { name: other.name }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${other.id}/orders$`));
  await expect(switcher).toContainText(other.name);
  await expect(menu.getByRole('link', { name: 'Machines' })).toHaveAttribute(
    'href',
    `/businesses/${other.id}/machines`,
  );
  await expect(menu.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');

  // The dashboard shows the business chosen last, after a reload too.
  await menu.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByText(`${other.name} at a glance.`)).toBeVisible();
  await page.reload();
  await expect(page.getByText(`${other.name} at a glance.`)).toBeVisible();

  // Opening a business's page by its address makes it the current one.
  await page.goto(`/businesses/${start.id}/patients`);
  await expect(switcher).toContainText(start.name);
  await expect(menu.getByRole('link', { name: 'Patients' })).toHaveAttribute('aria-current', 'page');
});

test('switching business while the next page is still loading opens the other business at that page', async ({
  page,
}) => {
  const { menu, switcher, start, other } = await signInAsAdminOfTwo(page);

  // A slow connection: the business pages' code is held until the switch is made, the dashboard still shown.
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  await page.route(/\/BusinessRoutes-[^/]*\.js$/, async (route) => {
    await arrived;
    await route.continue();
  });
  await menu.getByRole('link', { name: 'Orders' }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${start.id}/orders$`));
  await expect(page.getByText(`${start.name} at a glance.`)).toBeVisible();
  await switcher.click();
  await page.getByRole('option', { name: other.name }).click();
  arrive();
  await expect(page).toHaveURL(new RegExp(`/businesses/${other.id}/orders$`));
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  await expect(switcher).toContainText(other.name);
});

test('a one-business user sees its name without a switcher, and its dashboard shows machines and bags to remove, live', async ({
  page,
}) => {
  const business = await createBusiness();
  const other = await createBusiness();
  const machine = await createMachine(business.id);
  await createMachine(other.id, uniqueName('Not Yours'));
  const order = await createOrder(business.id, uniqueName('BC').replace(' ', '-'));
  // Not an Admin: no Users or Settings in the menu.
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await signInAsNew(page, user);

  const side = page.locator('#side-menu');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(side.getByText(business.name)).toBeVisible();
  await expect(side.getByRole('button', { name: /Business/ })).toHaveCount(0);
  await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Orders', 'Patients', 'Machines']);

  const machines = page.getByRole('list', { name: 'Machines' });
  const row = machines.getByRole('listitem').filter({ hasText: machine.name });
  await expect(row.getByText('Offline')).toBeVisible();
  await expect(machines.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('No bags to remove.')).toBeVisible();

  // The locker comes online and raises an alarm; it is put out of order elsewhere: all without a reload.
  locker = await startLocker();
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: locker.userCode });
  await expect(row.getByText('Online')).toBeVisible({ timeout: 40_000 });
  await locker.control({ do: 'alarm', code: 'EM_0016' });
  await expect(row.getByText('Alarm', { exact: true })).toBeVisible();
  await expect(row.getByText(/EM_0016/)).toBeVisible();
  await asAdmin('machines/toggleOutOfOrderStatus', { id: machine.id });
  await expect(row.getByText('Out of order')).toBeVisible();

  // The order's bag goes into the locker, then the order is cancelled: its bag is one to take out,
  // listed with its reference and counted, without a reload.
  await locker.control({ do: 'loadBag', barcode: order.barcode, location: 'B7' });
  await asAdmin('orders/cancel', { id: order.id, reason: 'Prescription changed' });
  const toRemove = page.getByRole('list', { name: 'Bags to remove' });
  await expect(page.getByRole('heading', { name: 'Bags to remove (1)' })).toBeVisible();
  await expect(toRemove.getByRole('link', { name: order.reference })).toHaveAttribute(
    'href',
    `/businesses/${business.id}/orders/${order.id}`,
  );
  await expect(toRemove.getByRole('listitem')).toContainText('Cancelled');
  await expect(toRemove.getByRole('listitem')).toContainText('slot B7');
  const tile = page
    .getByRole('list', { name: 'Usage now' })
    .getByRole('listitem')
    .filter({ hasText: 'Bags to remove' });
  await expect(tile.locator('.fleet__count-value')).toHaveText('1');
  await expect(tile).toContainText('1 cancelled, 0 expired');
  // The cancelled order's bag still fills its slot.
  const slots = page.getByRole('list', { name: 'Usage now' }).getByRole('listitem').filter({ hasText: 'Slots used' });
  await expect(slots.locator('.fleet__count-value')).toHaveText('1');

  // On the machine's page too, with the bag's reference in its contents.
  await row.getByRole('link', { name: machine.name }).click();
  await expect(page.getByRole('heading', { name: 'Bags to remove (1)' })).toBeVisible();
  await page.getByRole('tab', { name: 'Contents' }).click();
  await expect(page.getByRole('table', { name: 'Contents' }).getByRole('row', { name: /^B7 / })).toContainText(
    order.reference,
  );
});

test('support staff find an order from the top bar by barcode or reference, in any case', async ({ page }) => {
  const business = await createBusiness();
  const barcode = uniqueName('SUP').replace(' ', '-');
  const order = await createOrder(business.id, barcode);
  await logInAsAdmin(page);

  // By barcode, in another case; Enter opens the first (here the only) result.
  await finder(page).fill(barcode.toLowerCase());
  const result = page.getByRole('option').filter({ hasText: business.name });
  await expect(result).toContainText(order.reference);
  await expect(result).toContainText(order.patientName);
  await expect(result).toContainText('new');
  await expect(page.getByRole('option')).toHaveCount(1);
  await finder(page).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/orders/${order.id}$`));
  await expect(finder(page)).toHaveValue('');

  // The same with the arrow keys, from another page.
  await page.goto('/groups');
  await finder(page).fill(barcode);
  await expect(result).toBeVisible();
  await finder(page).press('ArrowDown');
  await finder(page).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/orders/${order.id}$`));

  // By reference (each business numbers its own, so other businesses' orders may answer too).
  await finder(page).fill(order.reference.toLowerCase());
  await result.click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/orders/${order.id}$`));

  await finder(page).fill('NO-SUCH-BARCODE-123');
  await expect(page.getByText('No order found')).toBeVisible();
});

test("a pharmacy user finds their business's order from the top bar, on a small screen too, and not another business's", async ({
  page,
}) => {
  const own = await createBusiness();
  const other = await createBusiness();
  const ownBarcode = uniqueName('OWN').replace(' ', '-');
  const ownOrder = await createOrder(own.id, ownBarcode);
  const otherBarcode = uniqueName('OTHER').replace(' ', '-');
  const otherOrder = await createOrder(other.id, otherBarcode);
  const user = await createUser({ role: { name: 'Business', resource: own.id, accessLevels: [] } });
  await signInAsNew(page, user);

  await finder(page).fill(ownOrder.reference);
  await page.getByRole('option', { name: new RegExp(ownOrder.reference) }).click();
  // The next search is typed at once, key by key, while the chosen order's page loads: the finder keeps
  // its focus (a screen reader hears which order opened), every key lands in it and its list shows.
  // The other business's order by its barcode: not theirs to find, typed or scanned (code and Enter).
  await page.keyboard.type(otherBarcode, { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`/businesses/${own.id}/orders/${ownOrder.id}$`));
  // (An open list hides the rest of the page from the accessibility tree: the heading is found by its tag.)
  await expect(page.locator(':is(h1, h2)', { hasText: `Order ${ownOrder.reference}` })).toBeVisible();
  await expect(finder(page)).toBeFocused();
  await expect(finder(page)).toHaveValue(otherBarcode);
  await expect(page.getByText('No order found')).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.locator('.order-search [role=status]')).toHaveText(
    `Opened order ${ownOrder.reference}, ${own.name}`,
  );
  await finder(page).fill('');
  await finder(page).fill(otherBarcode);
  await finder(page).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'No order found' })).toBeVisible();
  // By a reference both businesses use (each numbers its own orders): only their own answers.
  expect(otherOrder.reference).toBe(ownOrder.reference);
  await finder(page).fill(ownOrder.reference);
  await expect(page.getByRole('option').filter({ hasText: own.name })).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(1);

  // Below 768 px the finder stays in the top bar beside the menu toggle; on a 390 px phone it shrinks
  // so that the toggle stays on screen and the page never scrolls sideways.
  await finder(page).press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Menu' })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Room to read what is typed: at least a third of the screen.
  expect((await finder(page).boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(130);
  await page.setViewportSize({ width: 600, height: 800 });
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  // Scanned: Enter comes at once, before the search's pause has passed.
  await finder(page).fill(ownBarcode.toLowerCase());
  await finder(page).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/businesses/${own.id}/orders/${ownOrder.id}$`));
});
