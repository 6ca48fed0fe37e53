import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { expectAccessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  logInAsAdmin,
  type SimulatedLocker,
  signInAsNew,
  smsTo,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * The evidence pack: a locker too warm from its first reading, with a mains power alarm, holds
 * a loaded order. Staff open the machine's evidence pack, see the excursion, the alarm, the order and
 * the message its patient got; hold its PIN (the patient is texted and their page shows the collection
 * paused, without the PIN), download the ZIP (and read it), then release the PIN from the order's page
 * (the patient is texted again and sees the PIN). Support staff, and a pharmacy user on their own business.
 */

// Lockers pair and report on their own clock, on a shared, loaded machine: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 240_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

type Pack = {
  pack: { temperature: { excursions: unknown[] }; alarms: { code: string }[]; orders: unknown[] };
};

/** A machine whose locker runs hot with an alarm, and a loaded order in it: what the pack must show. */
async function excursion(businessId: string) {
  // Texts through the harness's local The SMS Works, where smsTo reads them.
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId,
    settings: { smsGateway: 'thesmsworks' },
  });
  const machine = await createMachine(businessId);
  locker = await startLocker({ scenario: resolve(import.meta.dirname, 'scenarios/hot-from-the-start.json') });
  const started = locker;
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');
  // A number no other test uses, so the local gateway's texts to it are this test's.
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Eve', family: 'Evidence' },
      mobileNumber: `07700 9${digits}`,
      dateOfBirth: '1985-03-27',
    },
  });
  const barcode = uniqueName('EV').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
    businessId,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
  });
  await started.control({ do: 'loadBag', barcode, location: 'A1' });
  await started.control({ do: 'alarm', code: 'EM_0003' });
  // The hub raises MP_0001 when it first averages the readings: wait for it, the alarm and the load.
  await expect
    .poll(
      async () => {
        const { pack } = await asAdmin<Pack>('evidence/getEvidencePack', {
          machineId: machine.id,
          from: Date.now() - 3_600_000,
          to: Date.now(),
        });
        return [
          pack.temperature.excursions.length > 0,
          pack.alarms.some((a) => a.code === 'EM_0003'),
          pack.orders.length,
        ];
      },
      { timeout: 90_000 },
    )
    .toEqual([true, true, 1]);
  return { machine, order, destination: `4477009${digits}` };
}

async function evidenceFlow(page: Page, businessId: string, who: RegExp) {
  const { machine, order, destination } = await excursion(businessId);
  await page.goto(`/businesses/${businessId}/machines/${machine.id}`);
  await page.getByRole('link', { name: 'Evidence pack' }).click();
  await expect(page.getByRole('heading', { name: `Evidence pack: ${machine.name}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Excursions' })).toContainText('MP_0001');
  await expect(page.getByRole('list', { name: 'Alarms and outages' })).toContainText('EM_0003 MainsPowerFailure');
  const item = page.getByRole('listitem', { name: `Order ${order.reference}` });
  await expect(item).toContainText('Eve Evidence');
  await expect(item.getByRole('list', { name: `Messages about ${order.reference}` })).toContainText(
    'Order ready by sms',
  );
  await expectAccessible(page, 'the evidence pack');

  // The kit's checkbox hides the native input under its drawn box: choose it as a keyboard user does.
  const select = item.getByRole('checkbox', { name: `Select order ${order.reference}` });
  await select.focus();
  await page.keyboard.press('Space');
  await expect(select).toBeChecked();
  await page.getByRole('button', { name: 'Hold PINs (1)' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Hold 1 PINs?' });
  await dialog.getByLabel('Reason for holding').fill('Excursion: pharmacist to check');
  await expectAccessible(page, 'the hold dialog');
  await dialog.getByRole('button', { name: 'Hold PINs' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'PINs held for 1 order.' })).toBeVisible();
  await expect(item).toContainText(who);
  await expect(item).toContainText('Excursion: pharmacist to check');
  await expect(page.getByRole('list', { name: 'Who acted' })).toContainText('PIN held by');

  // The patient is told (their second text, after the ready one), and their page shows the collection
  // paused with no PIN, until the release below.
  expect((await smsTo(destination, 20_000, 2)).content).toContain('is paused while it is checked');
  const patientPage = await page
    .context()
    .browser()
    ?.newPage({ baseURL: new URL(page.url()).origin });
  if (!patientPage) throw new Error('no browser for the patient');
  await patientPage.goto(`/p/${order.id}`);
  await patientPage.getByLabel('Day').fill('27');
  await patientPage.getByLabel('Month').fill('3');
  await patientPage.getByLabel('Year').fill('1985');
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await expect(patientPage.getByRole('heading', { name: /^Your order from / })).toBeVisible();
  await expect(patientPage.getByText('Collection paused', { exact: true })).toBeVisible();
  await expect(patientPage.getByText(/paused collection of this order while they check it/)).toBeVisible();
  await expect(patientPage.getByTestId('pin')).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^evidence-.*\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) ?? '')));
  const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  expect(text('summary.txt')).toContain('Temperature excursions: 1');
  expect(text('orders.csv')).toContain(order.reference);
  expect(text('orders.csv')).toContain('Excursion: pharmacist to check');
  expect(text('alarms.csv')).toContain('EM_0003');
  expect(text('messages.csv')).toContain('Order ready');
  expect(text('temperature-readings.csv').split('\r\n').length).toBeGreaterThan(2);

  await item.getByRole('link', { name: 'Eve Evidence' }).click();
  await expect(page.getByRole('heading', { name: `Order ${order.reference}` })).toBeVisible();
  const held = page.getByRole('alert').filter({ hasText: 'PIN held' });
  await expect(held).toContainText('Excursion: pharmacist to check');
  await expectAccessible(page, 'an order with a held PIN');
  await held.getByRole('button', { name: 'Release PIN' }).click();
  const release = page.getByRole('alertdialog', { name: 'Release this PIN?' });
  await release.getByLabel('Reason for releasing').fill('Checked: stock fine');
  await release.getByRole('button', { name: 'Release PIN' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'PIN released.' })).toBeVisible();
  await expect(held).toHaveCount(0);
  const { order: after } = await asAdmin<{ order: { pinHold?: unknown } }>('orders/get', { id: order.id });
  expect(after.pinHold).toBeUndefined();
  expect((await smsTo(destination, 20_000, 3)).content).toContain('you can collect your order');
  await patientPage.reload();
  await expect(patientPage.getByText('Ready to collect', { exact: true })).toBeVisible();
  await expect(patientPage.getByTestId('pin')).toBeVisible();
  await patientPage.close();
}

test('support staff hold and release the PINs of orders in a machine that ran hot, and download the pack', async ({
  page,
}) => {
  const business = await createBusiness();
  await logInAsAdmin(page);
  const { user } = await asAdmin<{ user: { name: string } }>('auth/session');
  await evidenceFlow(page, business.id, new RegExp(`PIN held by ${user.name}`));
});

test('a pharmacy user does the same for a machine of their own business', async ({ page }) => {
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await signInAsNew(page, user, { first: 'Erin', last: 'Evans' });
  const escaped = user.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await evidenceFlow(page, business.id, new RegExp(`PIN held by (Erin Evans|${escaped})`));
});
