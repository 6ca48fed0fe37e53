import type { Page } from '@playwright/test';
import {
  asAdmin,
  createBusiness,
  createMachine,
  createNhsBusiness,
  createUser,
  expect,
  logIn,
  logInAsAdmin,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/** The create-order form: patient search or quick add, machine, charges, the server's messages. */

test.describe.configure({ timeout: 120_000 });

type Order = {
  id: string;
  reference: string;
  status: string;
  barcode: string;
  patientId: string;
  patientName: string;
  machineId: string | null;
  prescriptionCharge: number;
  retailCharge: number;
  paymentStatus: string;
  collectionWindow: number;
};

const orderById = async (id: string) => (await asAdmin<{ order: Order }>('orders/get', { id })).order;

async function businessWithPatient(settings: Record<string, unknown>) {
  const business = await createBusiness();
  if (Object.keys(settings).length > 0) {
    await asAdmin('businessSettings/updateBusinessFeatureSettings', { businessId: business.id, settings });
  }
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: 'P-1001',
      name: { full: 'Alice Able' },
      mobileNumber: '07700 900001',
      dateOfBirth: '1980-02-03',
    },
  });
  return { business, patientId: patient.id };
}

async function openForm(page: Page, businessId: string) {
  await page.goto(`/businesses/${businessId}/orders/add`);
  await expect(page.getByRole('heading', { name: 'New order' })).toBeVisible({ timeout: 30_000 });
}

/** Searches the Patient box and picks the option whose name matches. */
async function pickPatient(page: Page, search: string, name: string) {
  const box = page.getByRole('combobox', { name: 'Patient' });
  await box.fill(search);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(box).toHaveValue(name);
}

/** The order the page landed on, read back through the API. */
async function landedOrder(page: Page, businessId: string): Promise<Order> {
  await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/orders/(?!add)[^/]+$`));
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  return orderById(id);
}

test('support staff create an order for a searched patient in a machine, with charges, after the server refuses bad input beside each field', async ({
  page,
}) => {
  const { business, patientId } = await businessWithPatient({
    charges: { enabled: true },
    retailCharges: { enabled: true },
    orderCollection: { defaultCollectionWindow: 5 },
  });
  const machine = await createMachine(business.id);
  const spare = await createMachine(business.id);
  const { testMachine } = await asAdmin<{ testMachine: { name: string } }>('testMachines/create', {
    businessId: business.id,
    name: uniqueName('QA locker'),
    numberOfSlots: 10,
  });
  const barcode = uniqueName('BC').replace(' ', '-');
  await logInAsAdmin(page);
  await openForm(page, business.id);

  // Nothing filled in: Patient and Barcode are required, said beside each.
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('combobox', { name: 'Patient' })).toHaveAccessibleDescription(/Please enter a value/);
  await expect(page.getByRole('textbox', { name: 'Barcode' })).toHaveAccessibleDescription(/Please enter a value/);
  await expect(page.getByRole('textbox', { name: 'Prescription charge (£)' })).not.toHaveAccessibleDescription(
    /valid amount/,
  );

  // The window defaults from the business's settings.
  await expect(page.getByRole('textbox', { name: 'Collection window (days)' })).toHaveValue('5');
  await pickPatient(page, 'ali', 'Alice Able');
  await expect(page.getByText('ID P-1001 · born 03-02-1980')).toBeVisible();
  // Each message goes once its field is answered.
  await expect(page.getByRole('combobox', { name: 'Patient' })).not.toHaveAccessibleDescription(/Please enter a value/);
  await page.getByRole('textbox', { name: 'Barcode' }).fill(barcode);
  await expect(page.getByRole('textbox', { name: 'Barcode' })).not.toHaveAccessibleDescription(/Please enter a value/);
  await page.getByRole('button', { name: /Machine/ }).click();
  // Support staff may also send it to a test machine (QA's simulated lockers).
  await expect(page.getByRole('option', { name: `${testMachine.name} (test machine)` })).toBeVisible();
  await page.getByRole('option', { name: machine.name, exact: true }).click();
  await page.getByRole('textbox', { name: 'Prescription charge (£)' }).fill('9.9x');
  await page.getByRole('textbox', { name: 'Retail charge (£)' }).fill('2.5');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('textbox', { name: 'Prescription charge (£)' })).toHaveAccessibleDescription(
    /Please enter a valid amount, e\.g\. “9\.99”/,
  );
  await expect(page).toHaveURL(/\/orders\/add$/);

  await page.getByRole('textbox', { name: 'Prescription charge (£)' }).fill('9.90');
  await page.getByRole('button', { name: 'Create order' }).click();
  const order = await landedOrder(page, business.id);
  expect(order).toMatchObject({
    status: 'new',
    barcode,
    patientId,
    patientName: 'Alice Able',
    machineId: machine.id,
    prescriptionCharge: 990,
    retailCharge: 250,
    paymentStatus: 'unpaid',
    collectionWindow: 5,
  });

  // A second current order with the same barcode: refused beside Barcode, nothing created.
  await openForm(page, business.id);
  await pickPatient(page, 'Able', 'Alice Able');
  await page.getByRole('textbox', { name: 'Barcode' }).fill(barcode);
  // A machine archived while the form was open: refused beside Machine, and the message goes with another pick.
  const machineSelect = page.getByRole('button', { name: /Machine/ });
  await machineSelect.click();
  await page.getByRole('option', { name: spare.name, exact: true }).click();
  await asAdmin('machines/toggleArchive', { id: spare.id });
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(machineSelect).toHaveAccessibleDescription('This machine is archived: choose another');
  await machineSelect.click();
  await page.getByRole('option', { name: machine.name, exact: true }).click();
  await expect(machineSelect).not.toHaveAccessibleDescription(/archived/);
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('textbox', { name: 'Barcode' })).toHaveAccessibleDescription(
    'Another current order already has this barcode',
  );
  await expect(page).toHaveURL(/\/orders\/add$/);
  const { orders } = await asAdmin<{ orders: Order[] }>('orders/listOrdersByBusiness', { businessId: business.id });
  expect(orders.map((o) => o.id)).toEqual([order.id]);

  // An archived business takes no orders: the page says so instead of offering the form.
  await asAdmin('businesses/archiveBusiness', { id: business.id });
  await page.goto(`/businesses/${business.id}/orders/add`);
  await expect(page.getByText('This business is archived: orders cannot be added.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create order' })).toHaveCount(0);
});

test('a pharmacy user adds a new patient from the form and creates an order with a generated barcode; charges are hidden when the business takes none', async ({
  page,
}) => {
  const { business } = await businessWithPatient({ autoBarcodes: { autoGenerate: true, autoPrint: false } });
  const machine = await createMachine(business.id);
  // A test machine is support's (QA): a pharmacy user neither sees it nor has it count as a second machine.
  await asAdmin('testMachines/create', { businessId: business.id, name: uniqueName('QA locker'), numberOfSlots: 10 });
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });

  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Patel');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  await openForm(page, business.id);

  await expect(page.getByRole('textbox', { name: /Prescription charge/ })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: /Retail charge/ })).toHaveCount(0);
  // The business's default window when it has set none: 2 days.
  await expect(page.getByRole('textbox', { name: 'Collection window (days)' })).toHaveValue('2');
  // Its only machine is chosen from the start.
  await expect(page.getByRole('button', { name: /Machine/ })).toContainText(machine.name);
  const barcodeField = page.getByRole('textbox', { name: 'Barcode' });
  await expect(barcodeField).toHaveValue(/^ML[0-9A-Z]{10}$/);
  const first = await barcodeField.inputValue();
  await page.getByRole('button', { name: 'Generate another barcode' }).click();
  await expect(barcodeField).not.toHaveValue(first);
  const barcode = await barcodeField.inputValue();

  // A quick new patient: the server's rules apply (a bad mobile is refused beside its field).
  await page.getByRole('button', { name: 'New patient' }).click();
  const dialog = page.getByRole('dialog', { name: 'New patient' });
  await dialog.getByRole('textbox', { name: 'Patient ID' }).fill('P-2002');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Bob Baker');
  await dialog.getByRole('textbox', { name: 'Mobile' }).fill('01234 567890');
  await dialog.getByRole('button', { name: 'Add patient' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Mobile' })).toHaveAccessibleDescription(/Invalid UK mobile number/);
  await dialog.getByRole('textbox', { name: 'Mobile' }).fill('07700 900002');
  await dialog.getByRole('button', { name: 'Add patient' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Patient' })).toHaveValue('Bob Baker');
  await expect(page.getByText('ID P-2002 · born —')).toBeVisible();

  await page.getByRole('button', { name: 'Create order' }).click();
  const order = await landedOrder(page, business.id);
  expect(order).toMatchObject({
    status: 'new',
    barcode,
    patientName: 'Bob Baker',
    machineId: machine.id,
    prescriptionCharge: 0,
    retailCharge: 0,
    paymentStatus: 'not_required',
    collectionWindow: 2,
  });

  // Another business's form, by its address: not offered to this user.
  const other = await createBusiness();
  await page.goto(`/businesses/${other.id}/orders/add`);
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create order' })).toHaveCount(0);

  const { patients } = await asAdmin<{ patients: { id: string; displayId: string; mobileNumber: string }[] }>(
    'patients/list',
    { businessId: business.id, filter: 'P-2002' },
  );
  expect(patients).toEqual([expect.objectContaining({ id: order.patientId, mobileNumber: '+447700900002' })]);
});

test("the quick patient's ID follows the business's setting: an NHS number, checked, in a dialog that opens blank each time", async ({
  page,
}) => {
  const business = await createNhsBusiness();
  await logInAsAdmin(page);
  await openForm(page, business.id);

  await page.getByRole('button', { name: 'New patient' }).click();
  const dialog = page.getByRole('dialog', { name: 'New patient' });
  const nhs = dialog.getByRole('textbox', { name: 'NHS number' });
  await nhs.fill('1234567890');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Cara Cole');
  await dialog.getByRole('textbox', { name: 'Mobile' }).fill('07700 900003');
  await dialog.getByRole('button', { name: 'Add patient' }).click();
  await expect(nhs).toHaveAccessibleDescription(/Invalid NHS\/CHI number/);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'New patient' }).click();
  await expect(nhs).toHaveValue('');
  await expect(nhs).not.toHaveAccessibleDescription(/Invalid NHS/);

  await nhs.fill('943 476 5919');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Cara Cole');
  await dialog.getByRole('textbox', { name: 'Mobile' }).fill('07700 900003');
  await dialog.getByRole('button', { name: 'Add patient' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Patient' })).toHaveValue('Cara Cole');
  await expect(page.getByText('ID 943 476 5919 · born —')).toBeVisible();
});
