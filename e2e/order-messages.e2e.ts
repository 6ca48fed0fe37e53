// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin} and ${expires} are template placeholders.
import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  logIn,
  logInAsAdmin,
  type SimulatedLocker,
  smsTo,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * Staff press "Resend message" on a loaded order's page and the patient gets a second text
 * with their PIN (through the harness's local The SMS Works); the order's timeline names who asked.
 * Support staff, and a pharmacy user on their own business's order.
 */

// Lockers pair and report on their own clock, on a shared, loaded machine: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** A business on The SMS Works with a loaded order whose ready text has arrived: the order and the patient's number. */
async function loadedOrder(businessId: string) {
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId,
    settings: { smsGateway: 'thesmsworks' },
  });
  await asAdmin('businessSettings/updateBusinessSmsTemplates', {
    businessId,
    templates: { orderReady: 'Ready to collect. PIN ${pin}, by ${expires}.' },
  });
  const machine = await createMachine(businessId);
  const started = await startLocker();
  locker = started;
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');

  // A number no other test uses, so the fake gateway's texts to it are this test's.
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Rita', family: 'Resend' },
      mobileNumber: `07700 9${digits}`,
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
    businessId,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
  });
  await started.control({ do: 'loadBag', barcode, location: 'A1' });
  const destination = `4477009${digits}`;
  const first = await smsTo(destination);
  return { order, destination, digits, first };
}

/** On the open order page: press Resend message, see the notice and the request on the timeline, get the second text. */
async function resend(
  page: Page,
  businessId: string,
  loaded: Awaited<ReturnType<typeof loadedOrder>>,
  who: string | RegExp,
) {
  await page.goto(`/businesses/${businessId}/orders/${loaded.order.id}`);
  await expect(page.getByRole('heading', { name: `Order ${loaded.order.reference}` })).toBeVisible();
  await expect(page.locator('dl.details')).toContainText('Loaded');
  await page.getByRole('button', { name: 'Resend message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Order ready message queued for' })).toContainText(
    `07••• •••${loaded.digits.slice(-3)}`,
  );
  const timeline = page.getByRole('grid', { name: 'Timeline' });
  const request = timeline.getByRole('row').filter({ hasText: 'Order ready message requested by' });
  await expect(request).toHaveCount(1);
  await expect(request).toContainText(who);

  const second = await smsTo(loaded.destination, 20_000, 2);
  const { pin } = await asAdmin<{ pin: string }>('orders/setRevealPinReason', {
    id: loaded.order.id,
    reason: 'e2e check of the resent text',
  });
  const shown = `PIN ${pin.slice(0, 4)} ${pin.slice(4)}`;
  expect(loaded.first.content).toContain(shown);
  expect(second.content).toContain(shown);
  expect(second.messageid).not.toBe(loaded.first.messageid);
  // Both texts end on the timeline as sent (the sender's events), the second after the request.
  await expect(timeline.getByRole('row').filter({ hasText: /SMS sent to 07••• •••\d{3} — Order ready/ })).toHaveCount(
    2,
  );
  await expect(page.getByRole('button', { name: 'Send expiry reminder' })).toBeVisible();
}

test('support staff resend a loaded order’s message and the patient gets a second text with the PIN', async ({
  page,
}) => {
  const business = await createBusiness();
  const loaded = await loadedOrder(business.id);
  await logInAsAdmin(page);
  const { user } = await asAdmin<{ user: { name: string } }>('auth/session');
  await resend(page, business.id, loaded, user.name);
});

test('a pharmacy user resends the message of their own business’s order', async ({ page }) => {
  const business = await createBusiness();
  const loaded = await loadedOrder(business.id);
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Rhys', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Rees');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  // The session signed in before the profile was completed names the user by their email until the next
  // sign-in (as every order event does): either is who asked.
  const escaped = user.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await resend(page, business.id, loaded, new RegExp(`Rhys Rees|${escaped}`));
});
