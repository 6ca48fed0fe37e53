import type { APIRequestContext, Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  call,
  createBusiness,
  createMachine,
  createUser,
  liveSubscribed,
  logIn,
  logInAsAdmin,
  pairedLocker,
  type SimulatedLocker,
  signedInApi,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * The console's orders: the orders list, an order's page and a patient's orders, for support staff and
 * for a pharmacy user of the business; a simulated locker loads and hands out a bag while the page is open.
 */

// Lockers boot, pair and report on their own clock, on a shared, loaded machine: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 180_000 });

type Order = { id: string; reference: string; barcode: string };
/** Makes an API call as someone: the admin (`asAdmin`) or a pharmacy user's own signed-in context. */
type Caller = <T>(path: string, data: unknown) => Promise<T>;

const adminCalls: Caller = (path, data) => asAdmin(path, data);
const callsOf =
  (api: APIRequestContext): Caller =>
  (path, data) =>
    call(api, path, data);

async function createPatient(as: Caller, businessId: string, given: string, family: string) {
  const { patient } = await as<{ patient: { id: string; name: string } }>('patients/create', {
    businessId,
    patient: { displayId: uniqueName('P').replace(' ', '-'), name: { given, family }, mobileNumber: '07700 900123' },
  });
  return patient;
}

async function createOrder(as: Caller, input: { businessId: string; patientId: string; machineId: string }) {
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await as<{ order: Order }>('orders/create', { ...input, barcode });
  return order;
}

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test('support staff filter the orders list in the URL and act on orders behind confirmations', async ({ page }) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  const patient = await createPatient(adminCalls, business.id, 'Olive', 'Oyl');
  const input = { businessId: business.id, patientId: patient.id, machineId: machine.id };
  const first = await createOrder(adminCalls, input);
  const second = await createOrder(adminCalls, input);
  const third = await createOrder(adminCalls, input);
  const fourth = await createOrder(adminCalls, input);

  await logInAsAdmin(page, `/businesses/${business.id}/orders`);
  const table = page.getByRole('table', { name: 'Orders' });
  for (const order of [first, second, third, fourth]) await expect(table.getByText(order.barcode)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: first.barcode })).toContainText('Olive Oyl');
  await expect(table.getByRole('row').filter({ hasText: first.barcode })).toContainText(machine.name);
  await expect(table.getByRole('row').filter({ hasText: first.barcode })).toContainText('New');
  await expect(page.getByRole('link', { name: 'Add order' })).toBeVisible();

  // Search by barcode, kept in the URL.
  await page.getByRole('searchbox', { name: 'Search' }).fill(first.barcode);
  await expect(page).toHaveURL(new RegExp(`\\?q=${first.barcode}$`));
  await expect(table.getByText(second.barcode)).toHaveCount(0);
  await expect(table.getByText(first.barcode)).toBeVisible();

  // Cancel asks for a reason first: none is refused beside the field, in SPEC §5's words.
  await table.getByRole('link', { name: first.reference }).click();
  await expect(page.getByRole('heading', { name: `Order ${first.reference}` })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel order' }).click();
  const cancel = page.getByRole('alertdialog', { name: `Cancel order ${first.reference}?` });
  await cancel.getByRole('button', { name: 'Cancel order' }).click();
  await expect(cancel.getByText('Please enter a value')).toBeVisible();
  await cancel.getByLabel('Reason for cancelling').fill('Duplicate prescription');
  await cancel.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByText('The order is cancelled.')).toBeVisible();
  const summary = page.locator('dl.details');
  await expect(summary).toContainText('Cancelled');
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(page.getByRole('grid', { name: 'Timeline' })).toContainText('Duplicate prescription');

  // Someone else cancels the second order while this page is about to mark it collected: refused, in
  // the server's words, and the page shows the state it is in now.
  await page.goto(`/businesses/${business.id}/orders/${second.id}`);
  await page.getByRole('button', { name: 'Mark collected' }).click();
  const markCollected = page.getByRole('alertdialog', { name: `Mark order ${second.reference} as collected?` });
  await expect(markCollected).toBeVisible();
  await asAdmin('orders/cancel', { id: second.id, reason: 'Cancelled at the counter' });
  await markCollected.getByRole('button', { name: 'Mark collected' }).click();
  await expect(page.getByText('This order is cancelled: it cannot be marked collected')).toBeVisible();
  await expect(markCollected).toHaveCount(0);
  await expect(summary).toContainText('Cancelled');

  // Mark collected, confirmed.
  await page.goto(`/businesses/${business.id}/orders/${third.id}`);
  await page.getByRole('button', { name: 'Mark collected' }).click();
  await page
    .getByRole('alertdialog', { name: `Mark order ${third.reference} as collected?` })
    .getByRole('button', { name: 'Mark collected' })
    .click();
  await expect(page.getByText('The order is marked collected.')).toBeVisible();
  await expect(summary).toContainText('Collected');

  // Reveal PIN: a reason, then the PIN once, as patients read it.
  await page.goto(`/businesses/${business.id}/orders/${fourth.id}`);
  await page.getByRole('button', { name: 'Reveal PIN' }).click();
  const reveal = page.getByRole('alertdialog', { name: `Reveal the PIN of order ${fourth.reference}?` });
  await reveal.getByLabel('Reason for revealing the PIN').fill('Patient lost the SMS');
  await reveal.getByRole('button', { name: 'Reveal PIN' }).click();
  const pinDialog = page.getByRole('dialog', { name: `PIN of order ${fourth.reference}` });
  await expect(pinDialog.getByText(/^\d{4} \d{4}$/)).toBeVisible();
  await pinDialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('grid', { name: 'Timeline' })).toContainText('Patient lost the SMS');

  // Back on the list: Only current (the default) hides the finished ones; the status filter and the
  // switch are kept in the URL and survive a reload.
  await page.goto(`/businesses/${business.id}/orders?q=`);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(table.getByText(fourth.barcode)).toBeVisible();
  await expect(table.getByText(first.barcode)).toHaveCount(0);
  await page.locator('label.switch', { hasText: 'Only current' }).click();
  await expect(page).toHaveURL(/current=false/);
  await expect(table.getByText(first.barcode)).toBeVisible();
  await page.getByRole('button', { name: /^.+ Status$/ }).click();
  await page.getByRole('option', { name: 'Cancelled', exact: true }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(table.getByText(second.barcode)).toBeVisible();
  await expect(table.getByText(third.barcode)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: /^.+ Status$/ })).toContainText('Cancelled');
  await expect(table.getByText(first.barcode)).toBeVisible();
  await expect(table.getByText(fourth.barcode)).toHaveCount(0);
  await page.getByRole('button', { name: /^.+ Status$/ }).click();
  await page.getByRole('option', { name: 'Removed', exact: true }).click();
  await expect(page.getByText('No orders found.')).toBeVisible();
});

/**
 * The whole loop on an open order page: the simulated test machine loads the bag (Loaded, live), staff
 * reveal the PIN, the patient types it and takes the bag (Collected, live), and the timeline shows it
 * all. A second bag is loaded and staff mark it removed. The patient's page lists the orders.
 */
async function lockerLoop(page: Page, as: Caller, businessId: string) {
  // A machine of the business, paired with a simulated locker as staff pair a real one.
  const machine = await createMachine(businessId);
  const machineId = machine.id;
  const started = await pairedLocker(machineId);
  locker = started;
  const patient = await createPatient(as, businessId, 'Lena', 'Locker');
  const other = await createOrder(as, { businessId, patientId: patient.id, machineId });

  // The order is made in the console: from the list, the form, for the patient, in the simulated locker.
  const subscribed = liveSubscribed(page);
  await page.goto(`/businesses/${businessId}/orders`);
  await page.getByRole('link', { name: 'Add order' }).click();
  await expect(page.getByRole('heading', { name: 'New order' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Patient' }).fill('Lena');
  await page.getByRole('option', { name: /Lena Locker/ }).click();
  await page.getByRole('textbox', { name: 'Barcode' }).fill(uniqueName('RX').replace(' ', '-').toUpperCase());
  await page.getByRole('button', { name: /Machine/ }).click();
  await page.getByRole('option', { name: machine.name, exact: true }).click();
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/orders/(?!add)[^/]+$`));
  const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const { order } = await as<{ order: Order & { machineId: string } }>('orders/get', { id: orderId });
  expect(order.machineId).toBe(machineId);
  await expect(page.getByText(`Order ${order.reference} created.`)).toBeVisible();
  const summary = page.locator('dl.details');
  await expect(summary).toContainText('New');
  await subscribed;

  await locker.control({ do: 'loadBag', barcode: order.barcode, location: 'A1' });
  await expect(summary).toContainText('Loaded');
  await expect(summary).toContainText('A1');
  const timeline = page.getByRole('grid', { name: 'Timeline' });
  await expect(timeline).toContainText('Locker, slot A1');
  // The patient comes once their text has gone: a bag taken before the runner sent it would (rightly)
  // have its order-ready message dropped as stale, which this loop is not about.
  await expect(timeline.getByRole('row').filter({ hasText: /SMS sent to 07••• •••\d{3}.*Order ready/ })).toHaveCount(1);

  await page.getByRole('button', { name: 'Reveal PIN' }).click();
  const reveal = page.getByRole('alertdialog', { name: `Reveal the PIN of order ${order.reference}?` });
  await reveal.getByLabel('Reason for revealing the PIN').fill('Patient at the locker without the SMS');
  await reveal.getByRole('button', { name: 'Reveal PIN' }).click();
  const shown = page.getByRole('dialog', { name: `PIN of order ${order.reference}` }).getByText(/^\d{4} \d{4}$/);
  const pin = (await shown.textContent())?.replace(' ', '') ?? '';
  expect(pin).toMatch(/^\d{8}$/);
  await page.getByRole('button', { name: 'Close' }).click();

  await locker.control({ do: 'enterPin', pin });
  await locker.control({ do: 'collectBag' });
  await expect(summary).toContainText('Collected');
  await expect(page.getByRole('button', { name: 'Reveal PIN' })).toHaveCount(0);
  // The job runner sent the patient two messages (order ready, collected) through the local gateway;
  // when each was sent depends on the runner, so they are checked apart from the order's own steps.
  const sent = timeline.getByRole('row').filter({ hasText: /SMS sent to 07••• •••\d{3}/ });
  await expect(sent).toHaveCount(2);
  // Oldest first, after the header row: created, loaded, PIN revealed (who and why), PIN typed, collected.
  const rows = timeline.getByRole('row').filter({ hasNotText: 'SMS sent to' });
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(1)).toContainText(`Order ${order.reference} created`);
  await expect(rows.nth(2)).toContainText('Loaded into');
  await expect(rows.nth(3)).toContainText('Patient at the locker without the SMS');
  await expect(rows.nth(3)).toContainText('Portal');
  await expect(rows.nth(4)).toContainText('PIN accepted at the locker');
  await expect(rows.nth(5)).toContainText('Collected from');
  await expect(rows.nth(5)).toContainText('Locker, slot A1');

  // The other bag goes in while the list is open: its row turns Loaded without a reload. Then staff
  // take it out and say so.
  await page.goto(`/businesses/${businessId}/orders?current=false`);
  const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: other.barcode });
  await expect(row).toContainText('New');
  await locker.control({ do: 'loadBag', barcode: other.barcode, location: 'A2' });
  await expect(row).toContainText('Loaded');
  await expect(row).toContainText('A2');
  await row.getByRole('link', { name: other.reference }).click();
  await expect(summary).toContainText('Loaded');
  await page.getByRole('button', { name: 'Mark removed' }).click();
  await page
    .getByRole('alertdialog', { name: `Mark order ${other.reference} as removed?` })
    .getByRole('button', { name: 'Mark removed' })
    .click();
  await expect(page.getByText('The order is marked removed.')).toBeVisible();
  await expect(summary).toContainText('Removed');

  // The patient's page lists both, each linking to its order.
  await summary.getByRole('link', { name: /Lena Locker/ }).click();
  const orders = page.getByRole('table', { name: 'Orders of the patient' });
  await expect(orders.getByRole('row').filter({ hasText: order.barcode })).toContainText('Collected');
  await expect(orders.getByRole('row').filter({ hasText: other.barcode })).toContainText('Removed');
  await orders.getByRole('link', { name: order.reference }).click();
  await expect(page.getByRole('heading', { name: `Order ${order.reference}` })).toBeVisible();
  return order;
}

test('support staff create an order in the console, a paired locker loads it and hands it out, live', async ({
  page,
}) => {
  const business = await createBusiness();
  await logInAsAdmin(page);
  await lockerLoop(page, adminCalls, business.id);
});

test('a pharmacy user runs the same loop on their own orders and gets nothing of another business’s', async ({
  page,
}) => {
  const own = await createBusiness();
  const other = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: own.id, accessLevels: [] } });
  const api = await signedInApi(user.email, user.password);
  try {
    await page.goto('/auth/login');
    await logIn(page, user.email, user.password);
    await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
    await page.getByLabel('Surname').fill('Patel');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });

    const order = await lockerLoop(page, callsOf(api), own.id);
    await page.goto(`/businesses/${own.id}/orders?current=false`);
    await expect(page.getByRole('table', { name: 'Orders' }).getByText(order.barcode)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add order' })).toBeVisible();

    // Another business's order, by its address: no data of it.
    const theirMachine = await createMachine(other.id);
    const theirPatient = await createPatient(adminCalls, other.id, 'Not', 'Yours');
    const theirs = await createOrder(adminCalls, {
      businessId: other.id,
      patientId: theirPatient.id,
      machineId: theirMachine.id,
    });
    // Under their business the business itself is not found; under their own, the order is not.
    await page.goto(`/businesses/${other.id}/orders/${theirs.id}`);
    await expect(page.getByText(`No business with id ${other.id}`)).toBeVisible();
    await expect(page.getByText(theirs.barcode)).toHaveCount(0);
    await page.goto(`/businesses/${own.id}/orders/${theirs.id}`);
    await expect(page.getByText(`No order with id ${theirs.id}`)).toBeVisible();
    await expect(page.getByText(theirs.barcode)).toHaveCount(0);
    await expect(page.getByText('Not Yours')).toHaveCount(0);
  } finally {
    await api.dispose();
  }
});
