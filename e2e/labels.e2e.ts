import type { Locator, Page } from '@playwright/test';
import { decodeBarcodes } from '../packages/api/src/testing/barcodes.ts';
import {
  asAdmin,
  createBusiness,
  createMachine,
  createUser,
  expect,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';
import { prints, stubPrint } from './harness/print.ts';

/**
 * Bag labels, for support staff and a pharmacy user alike: one order's label from its page, a new
 * order's label printed by itself with "Print barcodes automatically", and two chosen orders' labels
 * from the list. The browser's print is stubbed to count its calls; the drawn barcodes are read back
 * from a screenshot, as a scanner would.
 */

test.describe.configure({ timeout: 120_000 });
// Screenshots at twice the CSS pixels, as a scanner sees print: a 62 mm label's bars are 1–2 CSS px wide.
test.use({ deviceScaleFactor: 2 });

type Order = { id: string; reference: string; barcode: string };

async function estate(settings: Record<string, unknown> = {}) {
  const business = await createBusiness();
  if (Object.keys(settings).length > 0) {
    await asAdmin('businessSettings/updateBusinessFeatureSettings', { businessId: business.id, settings });
  }
  const machine = await createMachine(business.id, uniqueName('Label Locker'));
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: 'P-LABEL-1',
      name: { given: 'Alice Mary', family: 'Able' },
      mobileNumber: '07700 900011',
      dateOfBirth: '1980-02-03',
    },
  });
  const order = async (barcode: string) =>
    (
      await asAdmin<{ order: Order }>('orders/create', {
        businessId: business.id,
        patientId: patient.id,
        machineId: machine.id,
        barcode,
      })
    ).order;
  return { business, machine, order };
}

/** Signs in as support staff, or as a new pharmacy user of the business. */
async function signIn(page: Page, who: 'support' | 'pharmacy', businessId: string) {
  if (who === 'support') return logInAsAdmin(page);
  const user = await createUser({ role: { name: 'Business', resource: businessId, accessLevels: [] } });
  await signInAsNew(page, user);
}

/** The kit's checkbox hides the native input under its drawn box: choose it as a keyboard user does. */
async function choose(page: Page, name: string) {
  const box = page.getByRole('checkbox', { name });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
}

/** What a scanner reads from the barcode drawn in `region`. */
async function scanned(region: Locator) {
  return (await decodeBarcodes(new Uint8Array(await region.screenshot()))).map((d) => `${d.format} ${d.text}`);
}

/** The label of `order` in the print view: its fields, and both barcodes scan to its barcode. */
async function expectLabel(page: Page, order: Order, machineName: string) {
  const label = page.locator('.label-preview').getByRole('article', { name: `Bag label ${order.reference}` });
  await expect(label).toBeVisible({ timeout: 30_000 });
  await expect(label).toContainText(order.reference);
  await expect(label).toContainText('AM Able');
  await expect(label).not.toContainText('Alice');
  await expect(label).toContainText(machineName);
  await expect(label).toContainText(/Collect by \d\d-\d\d-\d{4}/);
  expect(await scanned(label.getByRole('img', { name: `Code 128 barcode ${order.barcode}` }))).toEqual([
    `Code128 ${order.barcode}`,
  ]);
  expect(await scanned(label.getByRole('img', { name: `QR code ${order.barcode}` }))).toEqual([
    `QRCode ${order.barcode}`,
  ]);
}

for (const who of ['support', 'pharmacy'] as const) {
  test(`${who}: an order's Print label opens its label, which prints by itself at the business's size and scans`, async ({
    page,
  }) => {
    const e = await estate({ labels: { size: 'sheet4x6' } });
    const order = await e.order(`LBL-${who.toUpperCase()}-1`);
    await stubPrint(page);
    await signIn(page, who, e.business.id);
    await page.goto(`/businesses/${e.business.id}/orders/${order.id}`);
    await page.getByRole('link', { name: 'Print label' }).click();
    await expect(page.getByRole('heading', { name: 'Bag label' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('1 label, 4 × 6 inch')).toBeVisible();
    await expectLabel(page, order, e.machine.name);
    await expect.poll(() => prints(page)).toBe(1);
    await page.getByRole('button', { name: 'Print' }).click();
    await expect.poll(() => prints(page)).toBe(2);

    // In print only the labels show, at the label's size: the console's frame is hidden.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: 'Bag label' })).toBeHidden();
    const printedLabel = page.locator('.label-print .bag-label');
    await expect(printedLabel).toHaveCount(1);
    await expect(printedLabel).toBeVisible();
    const box = await printedLabel.boundingBox();
    // 4 inches at 96 CSS pixels an inch.
    expect(Math.round(box?.width ?? 0)).toBe(384);
    await page.emulateMedia({ media: 'screen' });

    // The same label as a PDF, with the console's session.
    const pdf = await page.request.get(`/api/orders/labels.pdf?ids=${order.id}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
  });

  test(`${who}: with Print barcodes automatically, creating an order opens the print of its label`, async ({
    page,
  }) => {
    const e = await estate({ autoBarcodes: { autoGenerate: true, autoPrint: true } });
    await stubPrint(page);
    await signIn(page, who, e.business.id);
    await page.goto(`/businesses/${e.business.id}/orders/add`);
    await expect(page.getByRole('heading', { name: 'New order' })).toBeVisible({ timeout: 30_000 });
    const box = page.getByRole('combobox', { name: 'Patient' });
    await box.fill('Able');
    await page.getByRole('option', { name: /Alice Mary Able/ }).click();
    const barcode = await page.getByRole('textbox', { name: 'Barcode' }).inputValue();
    expect(barcode).not.toBe('');
    await page.getByRole('button', { name: 'Create order' }).click();
    await expect(page).toHaveURL(/\/orders\/labels\?ids=/, { timeout: 30_000 });
    await expect(page.getByText(/Order \d+ created\./)).toBeVisible();
    const id = new URL(page.url()).searchParams.get('ids') ?? '';
    const { order } = await asAdmin<{ order: Order }>('orders/get', { id });
    expect(order.barcode).toBe(barcode);
    await expectLabel(page, order, e.machine.name);
    await expect.poll(() => prints(page)).toBe(1);
    await page.getByRole('link', { name: 'Back to the order' }).click();
    await expect(page.getByRole('heading', { name: `Order ${order.reference}` })).toBeVisible();
  });

  test(`${who}: two orders chosen in the list print their labels together`, async ({ page }) => {
    const e = await estate();
    const first = await e.order(`LBL-${who.toUpperCase()}-A`);
    const second = await e.order(`LBL-${who.toUpperCase()}-B`);
    await e.order(`LBL-${who.toUpperCase()}-C`);
    await stubPrint(page);
    await signIn(page, who, e.business.id);
    await page.goto(`/businesses/${e.business.id}/orders`);
    await expect(page.getByRole('button', { name: 'Print labels' })).toBeDisabled({ timeout: 30_000 });
    await choose(page, `Select order ${first.reference}`);
    await choose(page, `Select order ${second.reference}`);
    await page.getByRole('link', { name: 'Print 2 labels' }).click();
    await expect(page.getByRole('heading', { name: 'Bag labels (2)' })).toBeVisible({ timeout: 30_000 });
    await expectLabel(page, first, e.machine.name);
    await expectLabel(page, second, e.machine.name);
    await expect(page.locator('.label-preview').getByRole('article')).toHaveCount(2);
    await expect.poll(() => prints(page)).toBe(1);

    // Select all on this page chooses every order listed.
    await page.goBack();
    await choose(page, 'Select all on this page');
    await expect(page.getByRole('link', { name: 'Print 3 labels' })).toBeVisible();
  });
}
