// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin}, ${expires} and ${portal} are template placeholders.
import type { Browser, Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  call,
  createBusiness,
  createMachine,
  createUser,
  liveSubscribed,
  logIn,
  logInAsAdmin,
  type SimulatedLocker,
  signedInApi,
  smsTo,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * A bag loaded into a locker sends the patient an SMS through the business's gateway (the
 * harness's local The SMS Works), with the PIN and a working short link; the provider's delivery
 * report shows on the order's page, live, for support staff and for the business's pharmacy users
 * (and only theirs); a failed delivery shows as failed with the provider's reason.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** A business that texts through The SMS Works, with its locker paired and online. */
async function smsWorksBusiness() {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId: business.id,
    settings: { smsGateway: 'thesmsworks' },
  });
  await asAdmin('businessSettings/updateBusinessSmsTemplates', {
    businessId: business.id,
    templates: { orderReady: 'Your order is ready. PIN ${pin}, collect by ${expires}. Details: ${portal}' },
  });
  const machine = await createMachine(business.id);
  const started = await startLocker();
  locker = started;
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');
  return { business, machine, locker: started };
}

type Sms = Awaited<ReturnType<typeof smsTo>>;

/**
 * An order for a new patient, its bag loaded at `location`, and the SMS The SMS Works received for it.
 * `digits` make the patient's number one no other test uses, so the fake gateway's message is this one's.
 */
async function loadedOrder(setup: Awaited<ReturnType<typeof smsWorksBusiness>>, location = 'A1') {
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: setup.business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Sam', family: 'Text' },
      mobileNumber: `07700 9${digits}`,
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
    businessId: setup.business.id,
    patientId: patient.id,
    machineId: setup.machine.id,
    barcode,
  });
  await setup.locker.control({ do: 'loadBag', barcode, location });
  const sms = await smsTo(`4477009${digits}`);
  return { order, sms, digits, path: `/businesses/${setup.business.id}/orders/${order.id}` };
}

/** The SMS Works posting a delivery report to the address the message gave it (its message object). */
async function deliveryReport(sms: Sms, status: string, extra: Record<string, unknown> = {}) {
  const report = await fetch(sms.deliveryreporturl ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messageid: sms.messageid,
      status,
      destination: Number(sms.destination),
      sender: sms.sender,
      tag: sms.tag,
      ...extra,
    }),
  });
  expect(report.status).toBe(200);
}

/**
 * Opens the order's page (signed in already) and waits until its live socket is subscribed, so a
 * report after this shows without a reload. The SMS is still on its way then.
 */
async function watchOrder(page: Page, path: string, subscribed: Promise<void>) {
  await page.goto(path);
  await expect(page.locator('dl.details')).toContainText('Text: Sent, not yet delivered');
  await subscribed;
}

/** Signs a freshly invited pharmacy user in, naming them on SPEC §1's complete-profile screen. */
async function signInAsNew(page: Page, user: { email: string; password: string }) {
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Pat', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Pharmacist');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
}

/** A page in its own browser context (own cookies), signed in as a new pharmacy user of `businessId`. */
async function pharmacyPage(browser: Browser, businessId: string) {
  const user = await createUser({ role: { name: 'Business', resource: businessId, accessLevels: [] } });
  const context = await browser.newContext();
  const page = await context.newPage();
  // This page is not the fixture's: its script errors fail the test here.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const subscribed = liveSubscribed(page);
  await signInAsNew(page, user);
  const close = async () => {
    await context.close();
    expect(errors, "errors in the pharmacy user's page").toEqual([]);
  };
  return { user, page, subscribed, close };
}

test('a loaded bag texts the patient their PIN and a short link through The SMS Works; the delivery shows on the order', async ({
  page,
}) => {
  const setup = await smsWorksBusiness();
  const { order, sms, digits, path } = await loadedOrder(setup);
  const { pin } = await asAdmin<{ pin: string }>('orders/setRevealPinReason', { id: order.id, reason: 'e2e check' });
  expect(sms.content).toContain(`PIN ${pin.slice(0, 4)} ${pin.slice(4)}`);
  const link = /Details: (\S+)$/.exec(sms.content)?.[1] ?? '';
  expect(link).toMatch(/\/u\/[A-Za-z0-9_-]{22}$/);
  const visit = await fetch(link, { redirect: 'manual' });
  expect(visit.status).toBe(302);
  expect(visit.headers.get('location')).toContain(`/p/${order.id}`);

  // Staff watch the order while The SMS Works reports the SMS delivered, at the address the message gave it.
  const subscribed = liveSubscribed(page);
  await logInAsAdmin(page);
  await watchOrder(page, path, subscribed);
  await deliveryReport(sms, 'DELIVERED');

  await expect(page.locator('dl.details')).toContainText('Text: Delivered');
  const timeline = page.getByRole('grid', { name: 'Timeline' });
  await expect(timeline).toContainText(`SMS sent to 07••• •••${digits.slice(-3)}`);
  await expect(timeline).toContainText('SMS delivered');
});

test("a pharmacy user sees their business's text delivered on the order, live; a pharmacy user of another business cannot reach it", async ({
  browser,
}) => {
  const setup = await smsWorksBusiness();
  const { order, sms, digits, path } = await loadedOrder(setup);
  const own = await pharmacyPage(browser, setup.business.id);
  try {
    // From their own console: the order list, then the order.
    await own.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await own.page.getByRole('link', { name: order.reference, exact: true }).click();
    await expect(own.page).toHaveURL(new RegExp(`${path}$`));
    await watchOrder(own.page, path, own.subscribed);
    await deliveryReport(sms, 'DELIVERED');
    await expect(own.page.locator('dl.details')).toContainText('Text: Delivered');
    const timeline = own.page.getByRole('grid', { name: 'Timeline' });
    await expect(timeline).toContainText(`SMS sent to 07••• •••${digits.slice(-3)}`);
    await expect(timeline).toContainText('SMS delivered');
  } finally {
    await own.close();
  }

  // Another business's pharmacy user: the same address shows nothing of the order, and the API refuses it.
  const elsewhere = await createBusiness();
  const other = await pharmacyPage(browser, elsewhere.id);
  try {
    await other.page.goto(path);
    // Not theirs to know of: the business page answers as for one that does not exist.
    await expect(other.page.getByRole('alert')).toContainText(`No business with id ${setup.business.id}`);
    await expect(other.page.getByText(order.reference, { exact: true })).toHaveCount(0);
    await expect(other.page.getByText('Text: ')).toHaveCount(0);
    const api = await signedInApi(other.user.email, other.user.password);
    try {
      await expect(call(api, 'orders/get', { id: order.id })).rejects.toThrow(/answered 40[34]/);
    } finally {
      await api.dispose();
    }
  } finally {
    await other.close();
  }
});

for (const who of ['support', 'pharmacy'] as const) {
  test(`a failed delivery shows as failed with the provider's reason on the order, for ${who} staff`, async ({
    page,
    browser,
  }) => {
    const setup = await smsWorksBusiness();
    const { sms, path } = await loadedOrder(setup);
    let view = page;
    let close = async () => {};
    if (who === 'support') {
      const subscribed = liveSubscribed(page);
      await logInAsAdmin(page);
      await watchOrder(page, path, subscribed);
    } else {
      const pharmacy = await pharmacyPage(browser, setup.business.id);
      view = pharmacy.page;
      close = pharmacy.close;
      await watchOrder(view, path, pharmacy.subscribed);
    }
    try {
      // The SMS Works' REJECTED and UNDELIVERABLE carry a failure reason with the provider's details.
      const [status, details] =
        who === 'support'
          ? ['UNDELIVERABLE', 'Handset switched off or out of coverage']
          : ['REJECTED', 'Number barred by the network'];
      await deliveryReport(sms, status, { failurereason: { code: 3, details, permanent: who !== 'support' } });
      await expect(view.locator('dl.details')).toContainText('Text: Failed');
      await expect(view.getByRole('grid', { name: 'Timeline' })).toContainText(`SMS failed: ${details}`);
    } finally {
      await close();
    }
  });
}
