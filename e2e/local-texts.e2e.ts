// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin}, ${expires} and ${portal} are template placeholders.
import type { Page } from '@playwright/test';
import { expectAccessible } from './harness/axe.ts';
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
  uniqueName,
} from './harness/fixtures.ts';

/**
 * Outside production a text whose provider has no credentials goes through the local gateway, and
 * support staff read it on the Mailbox page: the PIN text of a loaded order, and the 6-digit code of the
 * patient page's "Text me a code instead", which the patient types to open their order. (The harness's
 * server has no AWS credentials, the default SMS gateway.)
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** The newest text to the number ending in `ending` on the Mailbox page, refreshed until it holds `words`. */
async function textIn(page: Page, ending: string, words: RegExp) {
  const texts = page.getByRole('region', { name: 'Text messages' });
  const text = texts.getByRole('article', { name: new RegExp(`^SMS to .*${ending}$`) }).filter({ hasText: words });
  await expect(async () => {
    await texts.getByRole('button', { name: 'Refresh texts' }).click();
    await expect(text.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  return text.first();
}

test('support reads a loaded order’s PIN text and a patient’s texted code in the Mailbox; the patient opens the order with that code', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessSmsTemplates', {
    businessId: business.id,
    templates: { orderReady: 'Your order is ready. PIN ${pin}, collect by ${expires}. Details: ${portal}' },
  });
  const machine = await createMachine(business.id);
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  // A patient stored with a full name only (the console's one Name field): greeted by first name.
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { full: 'Eleanor Hughes' },
      mobileNumber: `07700 9${digits}`,
      dateOfBirth: '1961-05-14',
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
    businessId: business.id,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
  });
  const started = await startLocker();
  locker = started;
  await asAdmin('auth/activateDeviceAuth', { machineId: machine.id, userCode: started.userCode });
  await expect.poll(async () => (await started.view()).status).toBe('online');
  await started.control({ do: 'loadBag', barcode, location: 'C2' });

  // Support staff open the Mailbox from the side menu and read the PIN text, with its short link.
  await logInAsAdmin(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Mailbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
  const pinText = await textIn(page, `9${digits}`, /\d{4} \d{4}/);
  const pin = /\b(\d{4} \d{4})\b/.exec((await pinText.textContent()) ?? '')?.[1] ?? '';
  expect(pin).toMatch(/^\d{4} \d{4}$/);
  const shortLink = pinText.getByRole('list', { name: 'Links in this message' }).getByRole('link');
  await expect(shortLink).toHaveText(/\/u\/[\w-]+$/);
  const href = (await shortLink.getAttribute('href')) as string;
  await expectAccessible(page, 'the mailbox with a text message');

  // The patient, on their own phone, follows the link and asks for a code instead of a date of birth.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const patientPage = await phone.newPage();
    await patientPage.goto(href);
    await expect(patientPage).toHaveURL(new RegExp(`/p/${order.id}$`));
    await expect(patientPage.getByRole('heading', { name: 'Rather not use your date of birth?' })).toBeVisible();
    await patientPage.getByRole('button', { name: 'Text me a code instead' }).click();
    await expect(patientPage.getByLabel('Code', { exact: true })).toBeVisible();

    // Support read the code in the Mailbox…
    const codeText = await textIn(page, `9${digits}`, /\d{6} is your/);
    const code = /(\d{6}) is your/.exec((await codeText.textContent()) ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    // …and the patient types it: the order opens, with the PIN the text gave.
    await patientPage.getByLabel('Code', { exact: true }).fill(code);
    await patientPage.getByRole('button', { name: 'Continue' }).click();
    await expect(patientPage.getByRole('heading', { name: /^Your order from / })).toBeVisible();
    await expect(patientPage.getByText('Hello Eleanor', { exact: true })).toBeVisible();
    await expect(patientPage.getByTestId('pin')).toHaveText(pin);
  } finally {
    await phone.close();
  }
});
