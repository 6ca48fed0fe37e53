import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible } from './harness/axe.ts';
import { asAdmin, createBusiness, createUser, expect, logInAsAdmin, signInAsNew, test } from './harness/fixtures.ts';
import { prints, stubPrint } from './harness/print.ts';

/**
 * Orders from a CSV in the console, for support staff and a pharmacy user alike: a file with good and bad
 * rows is mapped (one column by hand), previewed with each row's errors, and created; the result lists the
 * orders created and every row that was not (refused on the page or by the server), the failed rows
 * download as CSV, and with "Print barcodes automatically" the created orders' labels print together.
 */

test.describe.configure({ timeout: 150_000 });

type Order = { id: string; reference: string; barcode: string };

async function estate() {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId: business.id,
    settings: { autoBarcodes: { autoGenerate: true, autoPrint: true }, charges: { enabled: true } },
  });
  const patient = async (displayId: string, family: string) =>
    (
      await asAdmin<{ patient: { id: string } }>('patients/create', {
        businessId: business.id,
        patient: { displayId, name: { given: 'Ann', family }, mobileNumber: '07700 900021' },
      })
    ).patient;
  const first = await patient('P-IMP-1', 'Ableton');
  await patient('P-IMP-2', 'Bowman');
  // A live order whose barcode the file repeats: the server refuses that row.
  await asAdmin<{ order: Order }>('orders/create', { businessId: business.id, patientId: first.id, barcode: 'DUP-1' });
  return { business };
}

/** Signs in as support staff, or as a new pharmacy user of the business. */
async function signIn(page: Page, who: 'support' | 'pharmacy', businessId: string) {
  if (who === 'support') return logInAsAdmin(page);
  const user = await createUser({ role: { name: 'Business', resource: businessId, accessLevels: [] } });
  await signInAsNew(page, user);
}

const csv = (who: string) =>
  [
    'Barcode,NHS number,Days,Prescription charge,Notes',
    `IMP-${who}-1,P-IMP-1,7,9.90,first`,
    ',p-imp-2,,,barcode generated',
    `IMP-${who}-3,,0,,no patient`,
    'DUP-1,P-IMP-1,,,barcode on a live order',
    `IMP-${who}-5,P-NOBODY,,,unknown patient`,
  ].join('\n');

for (const who of ['support', 'pharmacy'] as const) {
  test(`${who}: imports orders from a CSV, lists the created and failed rows, downloads the failed ones and prints the labels`, async ({
    page,
  }) => {
    const e = await estate();
    await stubPrint(page);
    await signIn(page, who, e.business.id);
    await page.goto(`/businesses/${e.business.id}/orders`);
    await page.getByRole('link', { name: 'Import orders' }).click();
    await expect(page.getByRole('heading', { name: 'Import orders' })).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, 'order import: choose a file');

    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(who)) });
    await expect(page.getByText('File: orders.csv')).toBeVisible();
    await expectAccessible(page, 'order import: first line');
    await page.getByRole('button', { name: 'Field names' }).click();

    // Barcode, NHS number and Prescription charge are guessed from the header; Days is mapped by hand.
    await expect(page.getByRole('button', { name: /Barcode$/ })).toContainText('Barcode');
    await expect(page.getByRole('button', { name: /NHS number$/ })).toContainText('Patient ID');
    await page.getByRole('button', { name: /Days$/ }).click();
    await page.getByRole('option', { name: 'Collection window (days)' }).click();
    await expect(page.getByRole('button', { name: /Days$/ })).toContainText('Collection window (days)');
    await expectAccessible(page, 'order import: mapping');
    await page.getByRole('button', { name: 'Preview' }).click();

    await expect(page.getByText('5 rows in the file: 4 orders ready to create, 1 row with errors')).toBeVisible();
    const preview = page.getByRole('table', { name: 'Preview of the orders' });
    await expect(preview).toContainText('patientDisplayId: Please enter a value');
    await expect(preview).toContainText('collectionWindow: Please enter a positive whole number');
    await expectAccessible(page, 'order import: preview');
    await page.getByRole('button', { name: 'Create 4 orders' }).click();

    await expect(page.getByRole('heading', { name: 'Import complete' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('2 orders created; 3 rows not created.')).toBeVisible();
    const created = page.getByRole('table', { name: 'Created orders' });
    await expect(created).toContainText(`IMP-${who}-1`);
    await expect(created).toContainText(/ML[0-9A-Z]{10}/);
    const failed = page.getByRole('table', { name: 'Import errors' });
    await expect(failed).toContainText('patientDisplayId: Please enter a value');
    await expect(failed).toContainText(/barcode: /);
    await expect(failed).toContainText("patientDisplayId: No current patient has the ID 'P-NOBODY'");

    // The created orders' labels, on one sheet, print by themselves.
    const labels = page.getByRole('region', { name: 'Bag labels of the created orders' });
    await expect(labels.locator('.label-preview').getByRole('article')).toHaveCount(2, { timeout: 30_000 });
    await expect(labels).toContainText('A Ableton');
    await expect(labels).toContainText('A Bowman');
    await expect.poll(() => prints(page)).toBe(1);
    await expectAccessible(page, 'order import: result');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the failed rows' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('orders-not-created.csv');
    const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
    const lines = text.trim().split(/\r?\n/);
    // csvText quotes every cell.
    expect(lines[0]).toBe('"Barcode","NHS number","Days","Prescription charge","Notes","Errors"');
    expect(lines).toHaveLength(4);
    expect(text).toContain('no patient');
    expect(text).toContain('DUP-1');
    expect(text).toContain('P-NOBODY');
    expect(text).not.toContain('first');

    // The orders exist: the list shows them.
    await page.getByRole('link', { name: 'Complete' }).click();
    await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
    await expect(page.getByText(`IMP-${who}-1`)).toBeVisible({ timeout: 30_000 });
  });
}
