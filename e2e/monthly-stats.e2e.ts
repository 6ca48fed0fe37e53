import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  londonMonth,
  signInAsNew,
  storeStatsMonth,
  test,
} from './harness/fixtures.ts';

/*
 * The monthly figures on a business's stats page: a month's figures stored as the monthly
 * job would (the harness's POST /__stats/month) show in the charts (a canvas each, with its text
 * alternative), in the monthly table, and in the monthly CSV. A business just added has only this
 * month (no months before it was added). As support and as a pharmacy user of the business.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const figures = {
  ordersAdded: 31,
  ordersLoaded: 30,
  ordersCollected: 25,
  collectedWithinWindow: 24,
  ordersExpired: 3,
  ordersCancelled: 2,
  ordersRemoved: 1,
  totalPickupMinutes: 4500,
  medianPickupMinutes: 95,
  paidAmount: 11_890,
  exemptionsByCode: { F: 1, A: 3 },
  pinReveals: 2,
  messagesByChannel: { sms: { sent: 30, failed: 1 }, email: { sent: 9, failed: 0 } },
  machineDowntimeMinutes: 3000,
  alarmsByCode: { EM_0001: 2 },
};

async function seeded(): Promise<{ businessId: string; monthName: string }> {
  const business = await createBusiness();
  const { year, month } = londonMonth();
  await storeStatsMonth(business.id, year, month, figures);
  return { businessId: business.id, monthName: `${monthNames[month - 1]} ${year}` };
}

async function walkMonthly(page: Page, made: { businessId: string; monthName: string }) {
  await page.goto(`/businesses/${made.businessId}`);
  await page.getByRole('link', { name: 'Stats', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Monthly figures' })).toBeVisible();

  // The charts: a canvas each, hidden from screen readers, and their text alternative.
  const outcomes = page.getByRole('figure', { name: 'Orders per month by outcome' });
  await expect(outcomes.locator('canvas')).toHaveCount(1);
  await expect(outcomes.locator('figcaption')).toContainText('Collected 25, Expired 3, Cancelled 2, Removed 1');
  await expect(page.getByRole('figure', { name: 'Pickup time' }).locator('figcaption')).toContainText(
    'on average 3 hours from loading to collection over 25 collections',
  );
  await expect(page.getByRole('figure', { name: 'Payments' }).locator('figcaption')).toContainText('£118.90 paid');
  await expect(page.getByRole('figure', { name: 'Exemptions by code' }).locator('figcaption')).toContainText(
    'Exemption A 3, Exemption F 1',
  );

  // The table: every figure of the month, SPEC §9 formatted.
  const table = page.getByRole('grid', { name: 'Monthly figures' });
  const row = table.getByRole('row').filter({ hasText: made.monthName });
  await expect(row).toHaveCount(1);
  const cells = [
    made.monthName,
    '31',
    '30',
    '25',
    '24',
    '3',
    '2',
    '1',
    '1.6 hours',
    '3 hours',
    '£118.90',
    '4 (A 3, F 1)',
    '2',
    '39 (Email 9, SMS 30)',
    '1 (SMS 1)',
    '2.1 days',
    '2 (EM_0001 2)',
  ];
  await expect(row.getByRole('rowheader').or(row.getByRole('gridcell'))).toHaveText(cells);
  // Only this month: the business was added in it, so there is nothing earlier to page back to.
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Previous 12 months' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Next 12 months' })).toBeDisabled();
  await accessible(page, 'the monthly figures');

  // The CSV is what the table shows.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export monthly CSV' }).click(),
  ]);
  const file = await readFile((await download.path()) ?? '', 'utf8');
  expect(file.startsWith('\uFEFF')).toBe(true);
  const lines = file.slice(1).split('\r\n');
  expect(lines).toEqual([
    '"Month","Orders added","Loaded","Collected","Collected in time","Expired","Cancelled","Removed","Median pickup","Average pickup","Paid","Exemptions","PIN reveals","Messages sent","Messages failed","Machine downtime","Alarms"',
    `"${made.monthName}",31,30,25,24,3,2,1,"1.6 hours","3 hours","£118.90","4 (A 3, F 1)",2,"39 (Email 9, SMS 30)","1 (SMS 1)","2.1 days","2 (EM_0001 2)"`,
    '',
  ]);
  expect(download.suggestedFilename()).toMatch(/^monthly-figures-\d{4}-\d{2}-to-\d{4}-\d{2}\.csv$/);

  // A month before the business was added: nothing to show.
  await page.getByLabel('Last month shown').fill('2020-01');
  await expect(page.getByText('The business was added after January 2020: no months to show.')).toBeVisible();
  await expect(page).toHaveURL(/month=2020-01/);
  // The collection records are still below.
  await expect(page.getByRole('heading', { name: 'Collection records' })).toBeVisible();
}

test("support sees a business's monthly charts and table and exports them", async ({ page }) => {
  const made = await seeded();
  await logInAsAdmin(page);
  await walkMonthly(page, made);
});

test("a pharmacy user sees their business's monthly charts and table and exports them", async ({ page }) => {
  const made = await seeded();
  const user = await createUser({ role: { name: 'Business', resource: made.businessId, accessLevels: [] } });
  await signInAsNew(page, user, { first: 'Paula', last: 'Pharmacist' });
  await walkMonthly(page, made);
});
