import { resolve } from 'node:path';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  logInAsAdmin,
  type SimulatedLocker,
  startLocker,
  stopLocker,
  test,
} from './harness/fixtures.ts';

/** Machines (SPEC §2, §4): pairing a real simulated locker, live events, out of order, archive, payments. */

// A locker polls for its pairing every few seconds and reports on its own clock: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

let locker: SimulatedLocker | undefined;

test.beforeEach(async ({ page }) => {
  await logInAsAdmin(page);
});

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test('a locker paired from the Pair dialog comes online, its alarm appears live, and out of order reaches it', async ({
  page,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  locker = await startLocker();
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByText('Offline').first()).toBeVisible();

  // A wrong code first: the dialog stays open and says so.
  await page.getByRole('button', { name: 'Pair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pair machine' });
  await dialog.getByLabel('Code').fill('ZZZZ-ZZZZ');
  await dialog.getByRole('button', { name: 'Pair' }).click();
  await expect(dialog.getByText('invalid code')).toBeVisible();
  // A pasted code far longer than any code says the same, not a length rule.
  await dialog.getByLabel('Code').fill(`${locker.userCode} ${'X'.repeat(40)}`);
  await dialog.getByRole('button', { name: 'Pair' }).click();
  await expect(dialog.getByText('invalid code')).toBeVisible();
  await expect(dialog.getByText(/at most|must be/i)).toHaveCount(0);

  // The code the simulator printed pairs it, typed in lower case without the hyphen; the page turns
  // online without a reload.
  await dialog.getByLabel('Code').fill(` ${locker.userCode.replace('-', '').toLowerCase()} `);
  await dialog.getByRole('button', { name: 'Pair' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Machine paired.')).toBeVisible();
  await expect(page.getByText('Online', { exact: true }).first()).toBeVisible({ timeout: 40_000 });
  await expect.poll(async () => (await locker?.view())?.machineId, { timeout: 30_000 }).toBe(machine.id);

  // An alarm raised on the locker appears in the events without a reload.
  await locker.control({ do: 'alarm', code: 'EM_0016' });
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events.getByRole('row', { name: /EM_0016/ })).toBeVisible();
  await expect(events.getByRole('row', { name: /EM_0016/ })).toContainText('critical');

  // Out of order reaches the locker, after a confirmation (like the payments switch); Cancel changes nothing.
  await page.locator('label.switch', { hasText: 'Out of order' }).click();
  const outOfOrder = page.getByRole('alertdialog', { name: `Take ${machine.name} out of order?` });
  await outOfOrder.getByRole('button', { name: 'Cancel' }).click();
  await expect(outOfOrder).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Out of order' })).not.toBeChecked();
  await page.locator('label.switch', { hasText: 'Out of order' }).click();
  await outOfOrder.getByRole('button', { name: 'Out of order' }).click();
  await expect(page.getByText('The machine is out of order.')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Out of order' })).toBeChecked();
  await expect.poll(async () => (await locker?.view())?.outOfOrder, { timeout: 20_000 }).toBe(true);
  await page.locator('label.switch', { hasText: 'Out of order' }).click();
  await page
    .getByRole('alertdialog', { name: `Put ${machine.name} back in order?` })
    .getByRole('button', { name: 'Back in order' })
    .click();
  await expect(page.getByText('The machine is back in order.')).toBeVisible();
  await expect.poll(async () => (await locker?.view())?.outOfOrder, { timeout: 20_000 }).toBe(false);

  // Bags the locker loads and gives up show in its contents without a reload.
  await page.getByRole('tab', { name: 'Contents' }).click();
  await expect(page.getByText('The machine is empty.')).toBeVisible();
  await locker.control({ do: 'loadBag', barcode: 'RX-E2E-0001', location: 'B2' });
  const bag = page.getByRole('table', { name: 'Contents' }).getByRole('row', { name: /RX-E2E-0001/ });
  await expect(bag).toContainText('B2');
  await locker.control({ do: 'removeBag', barcode: 'RX-E2E-0001' });
  await expect(page.getByText('The machine is empty.')).toBeVisible();

  // The contents are searched by the start of a barcode or a slot, in any case.
  await locker.control({ do: 'loadBag', barcode: 'RX-E2E-0002', location: 'C1' });
  await locker.control({ do: 'loadBag', barcode: 'RX-E2E-0103', location: 'C2' });
  const contents = page.getByRole('table', { name: 'Contents' });
  await expect(contents.getByRole('row', { name: /RX-E2E-0103/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('rx-e2e-01');
  await expect(contents.getByRole('row', { name: /RX-E2E-0002/ })).toHaveCount(0);
  await expect(contents.getByRole('row', { name: /RX-E2E-0103/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('c1');
  await expect(contents.getByRole('row', { name: /RX-E2E-0002/ })).toBeVisible();
  await expect(contents.getByRole('row', { name: /RX-E2E-0103/ })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search' }).fill('RX-NONE');
  await expect(page.getByText('No bag in the machine matches “RX-NONE”.')).toBeVisible();

  // The status the locker reported on connecting is stored and listed on the Status tab.
  await page.getByRole('tab', { name: 'Status' }).click();
  const reports = page.getByRole('table', { name: 'Status reports' });
  const report = reports.getByRole('row').filter({ hasText: 'slotsTotal: 24' }).filter({ hasText: 'mains: ok' });
  await expect(report.first()).toBeVisible();
});

test("the Pair dialog says 'invalid code' when the machine was archived meanwhile", async ({ page }) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await page.getByRole('button', { name: 'Pair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pair machine' });
  // Someone else archives it while the dialog is open: the server refuses (409), the dialog says only this.
  await asAdmin('machines/toggleArchive', { id: machine.id });
  await dialog.getByLabel('Code').fill('BCDF-GHJK');
  await dialog.getByRole('button', { name: 'Pair' }).click();
  await expect(dialog.getByText('invalid code')).toBeVisible();
  await expect(dialog.getByText(/archived/i)).toHaveCount(0);
});

test("a machine's events are filtered by level and code, and the filters are still applied after a reload", async ({
  page,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  const other = await createMachine(business.id);
  // Out of order and back, archived and back: MP_0003 (warn), then MP_0002, MP_0004 and MP_0005 (info).
  for (const path of ['toggleOutOfOrderStatus', 'toggleOutOfOrderStatus', 'toggleArchive', 'toggleArchive']) {
    await asAdmin(`machines/${path}`, { id: machine.id });
  }
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  const events = page.getByRole('table', { name: 'Events' });
  const row = (code: string) => events.getByRole('row', { name: new RegExp(code) });
  for (const code of ['MP_0002', 'MP_0003', 'MP_0004', 'MP_0005']) await expect(row(code)).toBeVisible();

  // By level.
  await page.getByRole('button', { name: /Level/ }).click();
  await page.getByRole('option', { name: 'warn', exact: true }).click();
  await expect(row('MP_0003')).toBeVisible();
  await expect(row('MP_000[245]')).toHaveCount(0);

  // By code, found by part of its name; with the level too, nothing matches, and it says so.
  const code = page.getByRole('combobox', { name: 'Code' });
  await code.fill('in order');
  await page.getByRole('option', { name: 'MP_0002 InOrder' }).click();
  await expect(code).toHaveValue('MP_0002 InOrder');
  await expect(page.getByText('No events match these filters.')).toBeVisible();
  await page.getByRole('button', { name: /Level/ }).click();
  await page.getByRole('option', { name: 'info', exact: true }).click();
  await expect(row('MP_0002')).toBeVisible();
  await expect(row('MP_000[345]')).toHaveCount(0);

  // A reload (the same session) keeps both.
  await page.reload();
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByRole('button', { name: /Level/ })).toContainText('info');
  await expect(code).toHaveValue('MP_0002 InOrder');
  await expect(row('MP_0002')).toBeVisible();
  await expect(row('MP_000[345]')).toHaveCount(0);

  // Another machine's page has filters of its own.
  await page.goto(`/businesses/${business.id}/machines/${other.id}`);
  await expect(page.getByRole('button', { name: /Level/ })).toContainText('All levels');
  await expect(page.getByRole('combobox', { name: 'Code' })).toHaveValue('');

  // Clearing the code shows every code of the level again.
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await page.getByRole('combobox', { name: 'Code' }).fill('');
  await page.getByRole('combobox', { name: 'Code' }).press('Escape');
  await expect(row('MP_0004')).toBeVisible();
  await expect(row('MP_0003')).toHaveCount(0);
});

test('machines are added, found by name, edited, paid for after a confirmation, and archived read-only', async ({
  page,
}) => {
  const business = await createBusiness();
  await page.goto(`/businesses/${business.id}/machines`);
  await expect(page.getByText('No machines found.')).toBeVisible();
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/\/machines\/add$/);

  // Name and a positive whole number of slots are required.
  await page.getByLabel('Name').fill('Front Locker');
  await page.getByLabel('Number of slots').fill('0');
  await page.getByRole('button', { name: 'Add machine' }).click();
  await expect(page.getByText('Please enter a positive whole number')).toBeVisible();
  // A name over 100 characters gets SPEC §5's length message beside the field.
  await page.getByLabel('Name').fill('F'.repeat(101));
  await page.getByLabel('Number of slots').fill('24');
  await page.getByRole('button', { name: 'Add machine' }).click();
  await expect(page.getByText('Value must be at most 100 characters long')).toBeVisible();
  await page.getByLabel('Name').fill('Front Locker');
  await page.getByRole('button', { name: 'Add machine' }).click();
  await expect(page.getByRole('heading', { name: 'Front Locker' })).toBeVisible();
  await expect(page.getByText('Machine added.')).toBeVisible();

  // The same name in another case is refused.
  await page.goto(`/businesses/${business.id}/machines/add`);
  await page.getByLabel('Name').fill('front locker');
  await page.getByLabel('Number of slots').fill('10');
  await page.getByRole('button', { name: 'Add machine' }).click();
  await expect(page.getByText('A machine with that name already exists for this business')).toBeVisible();
  await page.getByLabel('Name').fill('Back Locker');
  await page.getByRole('button', { name: 'Add machine' }).click();
  await expect(page.getByRole('heading', { name: 'Back Locker' })).toBeVisible();

  // Search by name.
  await page.goto(`/businesses/${business.id}/machines`);
  await page.getByRole('searchbox', { name: 'Search' }).fill('fro');
  await expect(page.getByRole('link', { name: 'Front Locker' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back Locker' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Front Locker' }).click();

  // Edit (the machine's own Edit link, not the business's Edit tab).
  await page.getByRole('link', { name: 'Edit' }).and(page.locator('[href*="machines/"]')).click();
  await page.getByLabel('Number of slots').fill('30');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Machine saved.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^30$/ })).toBeVisible();

  // Payments change only after the confirmation.
  await page.locator('label.switch', { hasText: 'Payments enabled' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Enable payments?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('switch', { name: 'Payments enabled' })).not.toBeChecked();
  await page.locator('label.switch', { hasText: 'Payments enabled' }).click();
  await confirm.getByRole('button', { name: 'Enable payments' }).click();
  await expect(page.getByText('Payments enabled.')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Payments enabled' })).toBeChecked();

  // Archive asks first; an archived machine shows the warning and cannot be edited or paired.
  await page.getByRole('button', { name: 'Archive' }).click();
  await page
    .getByRole('alertdialog', { name: /Archive Front Locker/ })
    .getByRole('button', { name: 'Archive' })
    .click();
  await expect(page.getByText('This machine is archived')).toBeVisible();
  await expect(page.getByText(/Archived on \d\d-\d\d-\d{4} by /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pair' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Out of order' })).toBeDisabled();

  // Only the show-archived list has it now.
  await page.goto(`/businesses/${business.id}/machines`);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByRole('link', { name: 'Back Locker' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Front Locker' })).toHaveCount(0);
  await page.locator('label.switch', { hasText: 'Show archived' }).click();
  await expect(page.getByRole('link', { name: 'Front Locker' })).toBeVisible();
});

test("a locker's temperature excursion shows live on its chart and banner, in its events and on the dashboard", async ({
  page,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  // About 28 °C from its first reading: the first 3-hour average is outside 15–25 °C.
  locker = await startLocker({ scenario: resolve(import.meta.dirname, 'scenarios/hot-from-the-start.json') });
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await page.getByRole('tab', { name: 'Temperature' }).click();
  await expect(page.getByText('No temperature readings yet.')).toBeVisible();

  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: locker.userCode });

  // The hub's first average reaches the open tab without a reload.
  await expect(
    page.getByText(/^Temperature excursion: the 3-hour average is 2\d\.\d°C, outside 15–25°C\.$/),
  ).toBeVisible({
    timeout: 40_000,
  });
  await expect(page.locator('figure.chart figcaption')).toContainText(
    /\d+ readings, \d+ outside the allowed band of 15 to 25 degrees/,
  );
  // The chart's legend tells a reading's time as the rest of the console does: London, 24-hour.
  const plot = page.locator('.chart__plot');
  await expect(async () => {
    const over = plot.locator('.u-over');
    const box = await over.boundingBox();
    if (!box) throw new Error('the chart has no plotting area');
    await over.hover({ position: { x: box.width - 2, y: box.height / 2 } });
    await expect(plot.locator('.u-legend .u-series').first()).toContainText(
      /Time\s*\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}/,
      { timeout: 1000 },
    );
  }).toPass({ timeout: 15_000 });

  // MP_0001 is raised with the average, and the dashboard lists the machine among the excursions.
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByRole('table', { name: 'Events' }).getByRole('row', { name: /MP_0001/ })).toBeVisible();
  await page.goto('/');
  await expect(
    page.getByRole('region', { name: /^Temperature excursions/ }).getByRole('link', { name: new RegExp(machine.name) }),
  ).toBeVisible();
});
