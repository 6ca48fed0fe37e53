import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
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

/** The fleet dashboard (`/`): machines online, offline, out of order and alarms, live. */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

let locker: SimulatedLocker | undefined;

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** Signs in and waits until the dashboard lists `machine` offline; answers the Offline section. */
async function openDashboardListing(page: Page, machine: { name: string }) {
  await logInAsAdmin(page);
  const offline = page.getByRole('region', { name: /^Offline/ });
  await expect(offline.getByRole('link', { name: new RegExp(machine.name) })).toBeVisible({ timeout: 60_000 });
  return offline;
}

test('a newly paired locker turns online on the dashboard and its alarm appears, without a reload', async ({
  page,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  locker = await startLocker();

  const offline = await openDashboardListing(page, machine);
  const online = page.getByRole('region', { name: /^Online/ });

  // Pair from the machine page's Pair dialog in a second tab, with the code the simulator printed,
  // while the dashboard stays open in the first.
  const machinePage = await page.context().newPage();
  await machinePage.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await machinePage.getByRole('button', { name: 'Pair' }).click();
  const dialog = machinePage.getByRole('dialog', { name: 'Pair machine' });
  await dialog.getByLabel('Code').fill(locker.userCode);
  await dialog.getByRole('button', { name: 'Pair' }).click();
  await expect(machinePage.getByText('Machine paired.')).toBeVisible();
  await machinePage.close();
  const link = online.getByRole('link', { name: new RegExp(machine.name) });
  await expect(link).toBeVisible({ timeout: 40_000 });
  await expect(offline.getByRole('link', { name: new RegExp(machine.name) })).toHaveCount(0);
  await expect(link).toHaveAttribute('href', `/businesses/${business.id}/machines/${machine.id}`);

  // An alarm on the locker shows under Active alarms, by level, linking to the machine.
  await locker.control({ do: 'alarm', code: 'EM_0003' });
  const alarms = page.getByRole('region', { name: 'critical alarms' });
  await expect(
    alarms.getByRole('listitem').filter({ hasText: 'EM_0003' }).filter({ hasText: machine.name }),
  ).toBeVisible();

  // Out of order, set elsewhere, is counted live too.
  await page.request.post('/api/machines/toggleOutOfOrderStatus', { data: { id: machine.id } });
  await expect(
    page.getByRole('region', { name: /^Out of order/ }).getByRole('link', { name: new RegExp(machine.name) }),
  ).toBeVisible();
});

test("a QA simulator's test machine stays off the dashboard, and so do its alarms", async ({ page }) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);

  await openDashboardListing(page, machine);

  // While the dashboard is open, QA starts a simulated test machine of the same business: it comes
  // online and raises a critical alarm.
  locker = await startLocker({ testMachineOf: business.id });
  const testMachineId = (await locker.view()).machineId as string;
  await locker.control({ do: 'alarm', code: 'EM_0003' });
  const raised = async () =>
    (await asAdmin<{ events: { code: string }[] }>('machines/listEvents', { machineId: testMachineId })).events.some(
      (e) => e.code === 'EM_0003',
    );
  await expect.poll(raised, { timeout: 20_000 }).toBe(true);

  // A push sent after those reaches the page (one socket, in order): then neither is on it.
  await asAdmin('machines/toggleOutOfOrderStatus', { id: machine.id });
  await expect(
    page.getByRole('region', { name: /^Out of order/ }).getByRole('link', { name: new RegExp(machine.name) }),
  ).toBeVisible();
  // Machine lists and alarm items alike link to their machine's page.
  await expect(page.locator(`a[href$="/machines/${testMachineId}"]`)).toHaveCount(0);
});

test('a machine added, archived and unarchived elsewhere comes and goes on the dashboard without a reload', async ({
  page,
}) => {
  const business = await createBusiness();
  const first = await createMachine(business.id);

  const offline = await openDashboardListing(page, first);

  // Another member of staff adds a machine: it is listed offline, with its business, at once.
  const added = await createMachine(business.id);
  const entry = offline.getByRole('listitem').filter({ hasText: added.name });
  await expect(entry).toContainText(`(${business.name})`);
  await expect(entry.getByRole('link')).toHaveAttribute('href', `/businesses/${business.id}/machines/${added.id}`);

  // Archived it leaves; unarchived it comes back with its business's name.
  await asAdmin('machines/toggleArchive', { id: added.id });
  await expect(entry).toHaveCount(0);
  await asAdmin('machines/toggleArchive', { id: added.id });
  await expect(entry).toContainText(`(${business.name})`);
});

/** The Active alarms tile's number and the items listed under Active alarms (every level). */
async function alarmCountAndList(page: Page): Promise<{ count: number; listed: number }> {
  const tile = page.getByRole('list', { name: 'Fleet' }).getByRole('listitem').filter({ hasText: 'Active alarms' });
  const count = Number(await tile.locator('.fleet__count-value').textContent());
  const listed = await page
    .getByRole('region', { name: /^(critical|error|warn|info) alarms$/ })
    .getByRole('listitem')
    .count();
  return { count, listed };
}

test('the Active alarms count and list agree while a temperature alarm is raised and after it clears', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  // About 28 °C from its first reading: its first 3-hour average is out of the band, raising MP_0001.
  locker = await startLocker({ scenario: resolve(import.meta.dirname, 'scenarios/hot-from-the-start.json') });
  await openDashboardListing(page, machine);
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: locker.userCode });

  const raised = page
    .getByRole('region', { name: 'error alarms' })
    .getByRole('listitem')
    .filter({ hasText: 'MP_0001' })
    .filter({ hasText: machine.name });
  const excursions = page.getByRole('region', { name: /^Temperature excursions/ });
  await expect(raised).toBeVisible({ timeout: 60_000 });
  await expect(excursions.getByRole('link', { name: new RegExp(machine.name) })).toBeVisible();
  const during = await alarmCountAndList(page);
  expect(during.count).toBe(during.listed);

  // The cabinet cools: once the 3-hour average is back in the band the alarm clears, from the list
  // and the count together, without a reload. (Other tests' lockers raise and clear alarms in the same
  // estate meanwhile, so the count is checked against the list, not against the earlier count.)
  await locker.control({ do: 'temperature', mode: 'steady' });
  await expect(excursions.getByRole('link', { name: new RegExp(machine.name) })).toHaveCount(0, { timeout: 120_000 });
  await expect(raised).toHaveCount(0);
  await expect(async () => {
    const after = await alarmCountAndList(page);
    expect(after.count).toBe(after.listed);
  }).toPass({ timeout: 10_000 });

  // A reload (the api's fleet summary) agrees with what the pushes made of it.
  await page.reload();
  await expect(
    page.getByRole('region', { name: /^Online/ }).getByRole('link', { name: new RegExp(machine.name) }),
  ).toBeVisible();
  await expect(raised).toHaveCount(0);
  const reloaded = await alarmCountAndList(page);
  expect(reloaded.count).toBe(reloaded.listed);
});
