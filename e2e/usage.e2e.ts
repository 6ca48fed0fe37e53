import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * Usage stats on the dashboards: a business with a machine that never connected (offline,
 * 0 of 40 slots used), three orders of which one is collected today. The pharmacy user's dashboard
 * shows 2 live orders, the machine offline (a link to it), its occupancy and today's collection in the
 * day-of-week analysis; collecting another order elsewhere drops Live orders to 1 without a reload.
 * Support's dashboard shows the estate, the business's machine among those out of order. axe-core
 * checks both.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

async function usageBusiness(name?: string) {
  const business = await createBusiness(name ? { name } : {});
  const machine = await createMachine(business.id);
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Uma', family: 'Usage' },
      mobileNumber: '07700 900124',
    },
  });
  const order = async () =>
    (
      await asAdmin<{ order: { id: string } }>('orders/create', {
        businessId: business.id,
        patientId: patient.id,
        barcode: uniqueName('RX').replace(' ', '-').toUpperCase(),
      })
    ).order.id;
  const ids = [await order(), await order(), await order()];
  await asAdmin('orders/markCollected', { id: ids[0] });
  return { business, machine, waiting: ids.slice(1) as [string, string] };
}

const tile = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Usage now' }).getByRole('listitem').filter({ hasText: label });

/** Today's London weekday, as the day-of-week table names it. */
const londonWeekday = () => new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'Europe/London' }).format();

test("a pharmacy user's dashboard shows their business's usage, live", async ({ page }) => {
  const made = await usageBusiness();
  const user = await createUser({ role: { name: 'Business', resource: made.business.id, accessLevels: [] } });
  await signInAsNew(page, user, { first: 'Uma', last: 'Owner' });

  const usage = page.getByRole('region', { name: 'Now' });
  await expect(tile(page, 'Live orders').locator('.fleet__count-value')).toHaveText('2');
  await expect(tile(page, 'Live orders')).toContainText('0 in lockers, 2 to load');
  await expect(tile(page, 'Slots used')).toContainText('of 40 in 1 machine');
  await expect(tile(page, 'Machines offline or out of order').locator('.fleet__count-value')).toHaveText('1');
  await expect(tile(page, 'Messages waiting')).toBeVisible();
  await expect(
    usage
      .getByRole('list', { name: 'Occupancy per machine' })
      .getByRole('listitem')
      .filter({ hasText: made.machine.name }),
  ).toContainText('0 / 40 slots (0%)');
  const down = usage.getByRole('list', { name: 'Offline or out of order' });
  await expect(down.getByRole('link', { name: made.machine.name })).toHaveAttribute(
    'href',
    `/businesses/${made.business.id}/machines/${made.machine.id}`,
  );
  await expect(down).toContainText('never connected');
  // Today's collection is in today's row, in or out of opening hours.
  const today = page
    .getByRole('table', { name: 'Collections by day of week' })
    .getByRole('row', { name: new RegExp(`^${londonWeekday()}`) });
  await expect(today.getByRole('cell')).toHaveCount(2);
  const cells = await today.getByRole('cell').allTextContents();
  expect(cells.map(Number).reduce((a, b) => a + b, 0)).toBe(1);
  await accessible(page, 'the pharmacy dashboard with usage stats');

  // Collected at the counter while the dashboard is open: the order push refreshes the tiles.
  await asAdmin('orders/markCollected', { id: made.waiting[0] });
  await expect(tile(page, 'Live orders').locator('.fleet__count-value')).toHaveText('1');
});

test("support's dashboard shows the estate's usage, machines out of order linking to them", async ({ page }) => {
  // Named to sort first among the estate's machines out of order (by business name).
  const made = await usageBusiness(uniqueName('A Usage'));
  await asAdmin('machines/toggleOutOfOrderStatus', { id: made.machine.id });
  await logInAsAdmin(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const usage = page.getByRole('region', { name: 'Estate now' });
  await expect(tile(page, 'Live orders')).toBeVisible();
  const liveOrders = Number(await tile(page, 'Live orders').locator('.fleet__count-value').textContent());
  expect(liveOrders).toBeGreaterThanOrEqual(2);
  const down = usage.getByRole('list', { name: 'Offline or out of order' });
  const link = down.getByRole('link', { name: `${made.machine.name} (${made.business.name})` });
  await expect(link).toHaveAttribute('href', `/businesses/${made.business.id}/machines/${made.machine.id}`);
  await expect(down.getByRole('listitem').filter({ hasText: made.machine.name })).toContainText('out of order since');
  await expect(page.getByRole('table', { name: 'Patients who collected, by age' })).toBeVisible();
  await expect(page.getByText('Opening hours: Monday to Saturday, 09:00 to 18:00 (London time).')).toBeVisible();
  await accessible(page, 'the support dashboard with usage stats');
});
