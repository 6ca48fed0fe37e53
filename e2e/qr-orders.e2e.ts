import type { Page } from '@playwright/test';
import { signQrCode } from '../packages/core/src/order/qr-code.ts';
import {
  asAdmin,
  createBusiness,
  createUser,
  expect,
  logIn,
  logInAsAdmin,
  type SimulatedLocker,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/** QR-code orders: the signing key made in settings, a bag's code scanned on New order or at a locker. */

test.describe.configure({ timeout: 150_000 });

type Order = { id: string; barcode: string; createdVia: string; status: string; patientId: string };

/** A business with QR-code integration on and a patient whose id in the pharmacy system is P-QR-1. */
async function qrBusiness() {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId: business.id,
    settings: { qrCodeIntegration: { enabled: true } },
  });
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: { displayId: 'P-QR-1', name: { full: 'Quinn Reed' }, mobileNumber: '07700 900123' },
  });
  return { business, patientId: patient.id };
}

/** Makes the business's QR signing key on its Integration settings page; the key as shown once. */
async function makeKey(page: Page, businessId: string): Promise<string> {
  await page.goto(`/businesses/${businessId}/settings/integration`);
  const panel = page.getByRole('region', { name: 'QR signing key' });
  await expect(panel.getByText('No key yet.')).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Make a QR signing key' }).click();
  const shown = page.locator('.secret__value');
  await expect(shown).toHaveText(/^mlqr_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByText(/^Made \d\d-\d\d-\d{4}/)).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);
  return key;
}

/** Scans a code into New order's "Scan QR code" box, as a scanner does: the text, then Enter. */
async function scan(page: Page, businessId: string, code: string) {
  await page.goto(`/businesses/${businessId}/orders/add`);
  const box = page.getByRole('textbox', { name: 'Scan QR code' });
  await box.fill(code, { timeout: 30_000 });
  await box.press('Enter');
  return box;
}

test('support staff make the signing key, scan a bag’s QR code into an order, and a forged one is refused', async ({
  page,
}) => {
  const { business, patientId } = await qrBusiness();
  const barcode = uniqueName('QR').replace(' ', '-');
  await logInAsAdmin(page);
  const key = await makeKey(page, business.id);

  const forged = await signQrCode('mlqr_not-the-key', { business: business.id, patient: 'P-QR-1', barcode });
  const box = await scan(page, business.id, forged);
  await expect(box).toHaveAccessibleDescription(/This QR code is not signed with this business's QR signing key$/);
  await expect(page).toHaveURL(/\/orders\/add$/);

  const code = await signQrCode(key, { business: business.id, patient: 'P-QR-1', barcode });
  await scan(page, business.id, code);
  await expect(page.getByText(/Order \d+ created from its QR code\./)).toBeVisible();
  await expect(page.getByText(/via QR code by/)).toBeVisible();
  // Scanned again: the same order, never a second one.
  await scan(page, business.id, code);
  await expect(page.getByText(/Order \d+ was already created from this QR code\./)).toBeVisible();
  const { orders } = await asAdmin<{ orders: Order[] }>('orders/listOrdersByBusiness', { businessId: business.id });
  expect(orders.map((o) => [o.barcode, o.createdVia, o.patientId])).toEqual([[barcode, 'qr-code', patientId]]);
});

test.describe('at the locker', () => {
  let locker: SimulatedLocker | undefined;
  test.afterEach(async () => {
    await stopLocker(locker, test.info());
    locker = undefined;
  });

  test('a pharmacy Admin makes the key; a locker loading a bag with its QR code creates and loads the order', async ({
    page,
  }) => {
    const { business } = await qrBusiness();
    // The simulated locker first: on a loaded machine its start is the slow part (one more try if it is late).
    locker = await startLocker({ testMachineOf: business.id }).catch(() => startLocker({ testMachineOf: business.id }));
    const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
    await page.goto('/auth/login');
    await logIn(page, user.email, user.password);
    await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
    await page.getByLabel('Surname').fill('Patel');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
    const key = await makeKey(page, business.id);

    // Scanned on New order by the pharmacy.
    const counter = uniqueName('QR').replace(' ', '-');
    await scan(
      page,
      business.id,
      await signQrCode(key, { business: business.id, patient: 'P-QR-1', barcode: counter }),
    );
    await expect(page.getByText(/Order \d+ created from its QR code\./)).toBeVisible();
    await expect(page.getByText(/via QR code by Priya Patel/)).toBeVisible();

    // Loaded at a locker (the simulator): the hub creates the order from the code and loads it.
    const bag = uniqueName('QR').replace(' ', '-');
    const code = await signQrCode(key, { business: business.id, patient: 'P-QR-1', barcode: bag });
    await locker?.control({ do: 'scanQrCode', qrCode: code, location: 'B2' });
    const loaded = async () =>
      (await asAdmin<{ orders: Order[] }>('orders/listOrdersByBusiness', { businessId: business.id })).orders.find(
        (o) => o.barcode === bag,
      );
    await expect.poll(async () => (await loaded())?.status, { timeout: 30_000 }).toBe('loaded');
    expect((await loaded())?.createdVia).toBe('qr-code');
    await page.goto(`/businesses/${business.id}/orders/${(await loaded())?.id}`);
    await expect(page.getByText(/via QR code/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('B2', { exact: true })).toBeVisible();
  });
});
