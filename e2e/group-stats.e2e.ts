import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createGroup,
  createUser,
  logInAsAdmin,
  londonMonth,
  signInAsNew,
  storeStatsMonth,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * A group's Stats tab: two businesses of the group with this month's figures stored as the
 * monthly job would. Both are compared by default; the chart (a canvas and its text alternative) and
 * the side-by-side table show each business and the month's total; unticking one leaves the other;
 * the CSV is what the table shows. As support and as a pharmacy user with a Group role.
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

type Made = { groupId: string; north: string; south: string; monthName: string };

async function seeded(): Promise<Made> {
  const group = await createGroup();
  const north = await createBusiness({ name: uniqueName('North Pharmacy') });
  const south = await createBusiness({ name: uniqueName('South Pharmacy') });
  await asAdmin('businesses/linkGroup', { groupId: group.id, businessIds: [north.id, south.id] });
  const { year, month } = londonMonth();
  await storeStatsMonth(north.id, year, month, { ordersCollected: 12, paidAmount: 2500, totalPickupMinutes: 720 });
  await storeStatsMonth(south.id, year, month, { ordersCollected: 8, paidAmount: 990, totalPickupMinutes: 240 });
  return { groupId: group.id, north: north.name, south: south.name, monthName: `${monthNames[month - 1]} ${year}` };
}

async function walkComparison(page: Page, made: Made) {
  await page.goto(`/groups/${made.groupId}`);
  await page.getByRole('link', { name: 'Stats', exact: true }).click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole('heading', { name: 'Comparison' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: made.north })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: made.south })).toBeChecked();

  const chart = page.getByRole('figure', { name: 'Collected per month by business' });
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(chart.locator('figcaption')).toContainText(`collected in all: ${made.north} 12, ${made.south} 8`);

  const table = page.getByRole('grid', { name: 'Comparison by month' });
  const rowOf = (name: string) => table.getByRole('row').filter({ hasText: name }).filter({ hasText: made.monthName });
  await expect(rowOf(made.north)).toContainText('£25.00');
  await expect(rowOf(made.north)).toContainText('1 hour');
  await expect(rowOf(made.south)).toContainText('£9.90');
  const total = rowOf('All chosen');
  await expect(total.getByRole('gridcell')).toHaveText([
    made.monthName,
    '0',
    '0',
    '20',
    '0',
    '0',
    '0',
    '0',
    '–',
    '0.8 hours',
    '£34.90',
    '0',
    '0',
    '0',
    '0',
    '0 hours',
    '0',
  ]);
  await accessible(page, 'the group comparison');

  // The chart can show another figure.
  await page.getByRole('button', { name: /Chart$/ }).click();
  await page.getByRole('option', { name: 'Paid', exact: true }).click();
  await expect(page.getByRole('figure', { name: 'Paid per month by business' }).locator('figcaption')).toContainText(
    `paid in all: ${made.north} £25.00, ${made.south} £9.90`,
  );

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export comparison CSV' }).click(),
  ]);
  const file = await readFile((await download.path()) ?? '', 'utf8');
  expect(file.startsWith('\uFEFF')).toBe(true);
  const lines = file.slice(1).split('\r\n');
  expect(lines[0]).toBe(
    '"Business","Month","Orders added","Loaded","Collected","Collected in time","Expired","Cancelled","Removed","Median pickup","Average pickup","Paid","Exemptions","PIN reveals","Messages sent","Messages failed","Machine downtime","Alarms"',
  );
  // 12 months of the two businesses and their total, and the last line end.
  expect(lines).toHaveLength(1 + 12 * 3 + 1);
  expect(lines.slice(1, 4)).toEqual(
    expect.arrayContaining([
      `"${made.north}","${made.monthName}",0,0,12,0,0,0,0,"–","1 hour","£25.00",0,0,0,0,"0 hours",0`,
      `"${made.south}","${made.monthName}",0,0,8,0,0,0,0,"–","0.5 hours","£9.90",0,0,0,0,"0 hours",0`,
      `"All chosen","${made.monthName}",0,0,20,0,0,0,0,"–","0.8 hours","£34.90",0,0,0,0,"0 hours",0`,
    ]),
  );

  // Unticked (by keyboard), a business leaves the chart and the table; no total for one business.
  const south = page.getByRole('checkbox', { name: made.south });
  await south.focus();
  await page.keyboard.press('Space');
  await expect(south).not.toBeChecked();
  await expect(rowOf(made.south)).toHaveCount(0);
  await expect(rowOf('All chosen')).toHaveCount(0);
  await expect(rowOf(made.north)).toContainText('£25.00');
}

test("support compares a group's businesses month by month", async ({ page }) => {
  const made = await seeded();
  await logInAsAdmin(page);
  await walkComparison(page, made);
});

test("a pharmacy user with a role on the group compares the group's businesses", async ({ page }) => {
  const made = await seeded();
  const user = await createUser({ role: { name: 'Group', resource: made.groupId, accessLevels: [] } });
  await signInAsNew(page, user, { first: 'Gail', last: 'Grouper' });
  await walkComparison(page, made);
});
