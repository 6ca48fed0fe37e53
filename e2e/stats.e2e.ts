import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * Collection records on a business's stats page: three orders, two collected today (one
 * after staff revealed its PIN), one still waiting. The records show the two; the PIN revealed filter
 * narrows them to one; Export CSV downloads exactly the rows of the filter. As support and as a
 * pharmacy user of the business; axe-core checks the page.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

type Made = { businessId: string; revealed: string; plain: string; waiting: string };

async function collections(): Promise<Made> {
  const business = await createBusiness();
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Cora', family: 'Collins' },
      mobileNumber: '07700 900123',
    },
  });
  const order = async () =>
    (
      await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
        businessId: business.id,
        patientId: patient.id,
        barcode: uniqueName('RX').replace(' ', '-').toUpperCase(),
      })
    ).order;
  const revealed = await order();
  const plain = await order();
  const waiting = await order();
  await asAdmin('orders/setRevealPinReason', { id: revealed.id, reason: 'Patient lost the message' });
  await asAdmin('orders/markCollected', { id: revealed.id });
  await asAdmin('orders/markCollected', { id: plain.id });
  return {
    businessId: business.id,
    revealed: revealed.reference,
    plain: plain.reference,
    waiting: waiting.reference,
  };
}

const header =
  '"Reference","Patient","Collected","Amount paid","Prescription charge","Retail charge","Exemption","Auto exempt","PIN revealed"';

/** The CSV the Export button downloads, as text. */
async function exported(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const file = await readFile((await download.path()) ?? '', 'utf8');
  // A UTF-8 byte order mark first: without it Excel reads the file as Windows-1252 and shows £9.90 as Â£9.90.
  expect(file.startsWith('\uFEFF')).toBe(true);
  const text = file.slice(1);
  return { name: download.suggestedFilename(), lines: text.split('\r\n').filter((l) => l !== '') };
}

async function walkRecords(page: Page, made: Made) {
  await page.goto(`/businesses/${made.businessId}`);
  await page.getByRole('link', { name: 'Stats', exact: true }).click();
  await expect(page).toHaveURL(/\/stats/);
  await expect(page.getByRole('heading', { name: 'Collection records' })).toBeVisible();
  const rows = page.getByRole('row').filter({ hasText: 'Cora Collins' });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('row').filter({ hasText: made.revealed })).toContainText('Yes');
  await expect(page.getByRole('row').filter({ hasText: made.waiting })).toHaveCount(0);
  await expect(rows.first()).toContainText('£0.00');
  await accessible(page, 'the collection records');

  const all = await exported(page);
  expect(all.lines[0]).toBe(header);
  expect(all.lines).toHaveLength(3);
  expect(all.lines.filter((l) => l.startsWith(`${made.revealed},"Cora Collins",`))).toHaveLength(1);
  expect(all.lines.filter((l) => l.startsWith(`${made.plain},"Cora Collins",`))).toHaveLength(1);

  await page.getByRole('button', { name: /Records$/ }).click();
  await page.getByRole('option', { name: 'PIN revealed', exact: true }).click();
  await expect(page).toHaveURL(/filter=PIN/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(made.revealed);
  await accessible(page, 'the PIN revealed records');

  const revealed = await exported(page);
  expect(revealed.name).toMatch(/^collection-records-pin-revealed-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(revealed.lines).toHaveLength(2);
  expect(revealed.lines[0]).toBe(header);
  expect(revealed.lines[1]).toMatch(
    new RegExp(
      `^${made.revealed},"Cora Collins","\\d{2}-\\d{2}-\\d{4} [0-9:]{8}","£0\\.00","£0\\.00","£0\\.00",,"No","Yes"$`,
    ),
  );

  // A range before today: nothing.
  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByLabel('To', { exact: true }).fill('2020-01-31');
  await expect(page.getByText('No collections in these days')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(2);
}

test('support sees the collection records, filters them and exports the CSV', async ({ page }) => {
  const made = await collections();
  await logInAsAdmin(page);
  await walkRecords(page, made);
});

test("a pharmacy user sees their business's collection records and exports them", async ({ page }) => {
  const made = await collections();
  const user = await createUser({ role: { name: 'Business', resource: made.businessId, accessLevels: [] } });
  await signInAsNew(page, user, { first: 'Paula', last: 'Pharmacist' });
  await walkRecords(page, made);
});
