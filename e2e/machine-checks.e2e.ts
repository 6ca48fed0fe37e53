import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  logInAsAdmin,
  patientWithOrders,
  type SimulatedLocker,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * What support staff are shown about a machine beyond its state (issue 36): QA's test machines, listed
 * apart with their events; a locker with another number of slots than its machine; the bags to take
 * out of a locker; and a warning before card payments are switched on for a business that takes none.
 */

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

test("support finds QA's test machines on the business's machines list, and opens one's events", async ({ page }) => {
  const business = await createBusiness();
  const real = await asAdmin<{ machine: { name: string } }>('machines/createMachine', {
    businessId: business.id,
    name: uniqueName('Front'),
    numberOfSlots: 24,
  });
  // QA's route: the simulator creates a test machine in the business and connects as it.
  locker = await startLocker({ testMachineOf: business.id });
  const machineId = (await locker.view()).machineId ?? '';
  await locker.control({ do: 'alarm', code: 'EM_0016' });
  const { testMachine } = await asAdmin<{ testMachine: { name: string } }>('testMachines/get', { id: machineId });

  await page.goto(`/businesses/${business.id}/machines`);
  const list = page.getByRole('table', { name: 'Machines' });
  await expect(list.getByRole('row', { name: new RegExp(real.machine.name) })).toBeVisible();
  await expect(list.getByRole('row', { name: new RegExp(testMachine.name) })).toHaveCount(0);

  await page.locator('label.switch', { hasText: 'Test machines' }).click();
  await expect(page).toHaveURL(/test=true/);
  const tests = page.getByRole('table', { name: 'Test machines' });
  const row = tests.getByRole('row', { name: new RegExp(testMachine.name) });
  await expect(row).toContainText('Test machine');
  await expect(tests.getByRole('row', { name: new RegExp(real.machine.name) })).toHaveCount(0);
  await row.getByRole('link', { name: `Events of ${testMachine.name}` }).click();

  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/machines/${machineId}$`));
  await expect(page.getByRole('heading', { name: testMachine.name })).toBeVisible();
  await expect(page.getByText('Test machine', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Events' }).getByRole('row', { name: /EM_0016/ })).toBeVisible();
});

test('a locker reporting fewer slots than its machine has is flagged on the machine page until they match', async ({
  page,
}) => {
  const business = await createBusiness();
  const { machine } = await asAdmin<{ machine: { id: string; name: string } }>('machines/createMachine', {
    businessId: business.id,
    name: uniqueName('Thirty'),
    numberOfSlots: 30,
  });
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByText('The locker has a different number of slots')).toHaveCount(0);

  // The simulator's locker has 24 slots, and says so when it connects: the page flags it live.
  locker = await startLocker();
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: locker.userCode });
  const warning = page.getByRole('alert').filter({ hasText: 'The locker has a different number of slots' });
  await expect(warning).toContainText('The locker reports 24 slots; this machine is set up with 30.', {
    timeout: 40_000,
  });
  await expect(page.getByRole('table', { name: 'Events' }).getByRole('row', { name: /MP_0009/ })).toContainText(
    'The locker reports 24 slots; the machine is set up with 30',
  );

  // Set up with the locker's number, the machine is no longer flagged.
  await warning.getByRole('link', { name: 'Edit the machine' }).click();
  await page.getByLabel('Number of slots').fill('24');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Machine saved.')).toBeVisible();
  await expect(page.getByText('The locker has a different number of slots')).toHaveCount(0);
});

test("a cancelled order's bag still in the locker is one to remove, with its reference, and counted on the dashboard", async ({
  page,
}) => {
  const business = await createBusiness();
  const { machine } = await asAdmin<{ machine: { id: string; name: string } }>('machines/createMachine', {
    businessId: business.id,
    name: uniqueName('Locker'),
    numberOfSlots: 24,
  });
  const { order } = await patientWithOrders(business.id);
  const kept = await order();
  const cancelled = await order();
  locker = await startLocker();
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: locker.userCode });
  await expect.poll(async () => (await locker?.view())?.status).toBe('online');
  await locker.control({ do: 'loadBag', barcode: kept.barcode, location: 'A1' });
  await locker.control({ do: 'loadBag', barcode: cancelled.barcode, location: 'A2' });
  await expect
    .poll(async () => (await asAdmin<{ order: { status: string } }>('orders/get', { id: cancelled.id })).order.status)
    .toBe('loaded');

  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Bags to remove/ })).toHaveCount(0);
  await asAdmin('orders/cancel', { id: cancelled.id, reason: 'Prescription changed' });

  // Without a reload: the bag to take out, with the cancelled order's reference.
  await expect(page.getByRole('heading', { name: 'Bags to remove (1)' })).toBeVisible();
  const toRemove = page.getByRole('list', { name: 'Bags to remove' });
  await expect(toRemove.getByRole('link', { name: cancelled.reference })).toHaveAttribute(
    'href',
    `/businesses/${business.id}/orders/${cancelled.id}`,
  );
  await expect(toRemove).toContainText('slot A2');
  await page.getByRole('tab', { name: 'Contents' }).click();
  const contents = page.getByRole('table', { name: 'Contents' });
  // A row's name starts with its slot; a barcode (random letters and digits) may hold "A1" or "A2" too.
  await expect(contents.getByRole('row', { name: /^A2 / })).toContainText(cancelled.reference);
  await expect(contents.getByRole('row', { name: /^A1 / })).toContainText(kept.reference);

  // The estate's dashboard counts it among the bags to remove.
  await page.goto('/');
  const tile = page
    .getByRole('list', { name: 'Usage now' })
    .getByRole('listitem')
    .filter({ hasText: 'Bags to remove' });
  await expect(tile.locator('.fleet__count-value')).not.toHaveText('0');
  await expect(tile).toContainText(/\d+ cancelled, \d+ expired/);

  // Taken out of the locker: nothing left to remove on the machine's page.
  await locker.control({ do: 'removeBag', barcode: cancelled.barcode });
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Bags to remove/ })).toHaveCount(0);
});

test('switching payments on warns when the business has no card provider, and not once it has one', async ({
  page,
}) => {
  const business = await createBusiness();
  const { machine } = await asAdmin<{ machine: { id: string; name: string } }>('machines/createMachine', {
    businessId: business.id,
    name: uniqueName('Paying'),
    numberOfSlots: 24,
  });
  await asAdmin('paymentSettings/updatePaymentSettings', {
    businessId: business.id,
    contactNumber: '0113 496 0001',
    legalInfo: 'E2E Pharmacy Ltd',
    provider: null,
    judo: null,
  });
  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await page.locator('label.switch', { hasText: 'Payments enabled' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Enable payments?' });
  const warning = dialog.getByRole('alert').filter({ hasText: 'This business has no card provider' });
  await expect(warning).toContainText('they will only be told to contact the pharmacy on 0113 496 0001');
  await expect(warning.getByRole('link', { name: 'payment settings' })).toHaveAttribute(
    'href',
    `/businesses/${business.id}/settings/payment`,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await asAdmin('paymentSettings/updatePaymentSettings', {
    businessId: business.id,
    contactNumber: '0113 496 0001',
    legalInfo: 'E2E Pharmacy Ltd',
    provider: 'judo',
    judo: {
      id: '100200300',
      sandbox: true,
      token: 'token-long-enough',
      secret: 'secret-long-enough',
      showVisa: true,
      showAmex: false,
      showMastercard: false,
    },
  });
  await page.reload();
  await page.locator('label.switch', { hasText: 'Payments enabled' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Patients will be asked to pay their charges at this machine.')).toBeVisible();
  await expect(dialog.getByText('This business has no card provider')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Enable payments' }).click();
  await expect(page.getByText('Payments enabled.')).toBeVisible();
});
