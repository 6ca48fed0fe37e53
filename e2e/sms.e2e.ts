// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin}, ${expires} and ${portal} are template placeholders.
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  liveSubscribed,
  logInAsAdmin,
  type SimulatedLocker,
  smsTo,
  startLocker,
  stopLocker,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/**
 * Issue 18: a bag loaded into a locker sends the patient an SMS through the business's gateway (the
 * harness's local The SMS Works), with the PIN and a working short link; the provider's delivery
 * report shows on the order's timeline.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test('a loaded bag texts the patient their PIN and a short link through The SMS Works; the delivery shows on the order', async ({
  page,
}) => {
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

  // A number no other test uses, so the fake gateway's message is this one's.
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Sam', family: 'Text' },
      mobileNumber: `07700 9${digits}`,
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string; reference: string } }>('orders/create', {
    businessId: business.id,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
  });
  await locker.control({ do: 'loadBag', barcode, location: 'A1' });

  const sms = await smsTo(`4477009${digits}`);
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
  await page.goto(`/businesses/${business.id}/orders/${order.id}`);
  const summary = page.locator('dl.details');
  await expect(summary).toContainText('Text: Sent, not yet delivered');
  await subscribed;
  const report = await fetch(sms.deliveryreporturl ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messageid: sms.messageid, status: 'DELIVERED', destination: sms.destination }),
  });
  expect(report.status).toBe(200);

  await expect(summary).toContainText('Text: Delivered');
  const timeline = page.getByRole('grid', { name: 'Timeline' });
  await expect(timeline).toContainText(`SMS sent to 07••• •••${digits.slice(-3)}`);
  await expect(timeline).toContainText('SMS delivered');
});
