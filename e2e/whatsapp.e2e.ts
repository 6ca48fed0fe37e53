import type { Page } from '@playwright/test';
import { formatDate } from '../packages/core/src/index.ts';
import {
  asAdmin,
  expect as baseExpect,
  call,
  createBusiness,
  createUser,
  logIn,
  logInAsAdmin,
  signedInApi,
  test,
  uniqueName,
  whatsAppTo,
} from './harness/fixtures.ts';

/**
 * WhatsApp opt-in: on a patient's page staff send a code to the patient by WhatsApp (the
 * harness's local WhatsApp Cloud API receives it), type in what the patient reads out, and the patient
 * is opted in on that number. Support staff and pharmacy users both.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

/** A business with WhatsApp on and a patient with a mobile no other test uses. */
async function whatsAppPatient(options: { whatsApp?: boolean } = {}) {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId: business.id,
    settings: { enableWhatsApp: options.whatsApp ?? true },
  });
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Wanda', family: 'Whats' },
      mobileNumber: `07700 9${digits}`,
    },
  });
  return { business, patient, digits };
}

/** Sends the code from the patient page, enters a wrong one, then the right one, and sees the opt-in. */
async function optInOnPatientPage(page: Page, target: Awaited<ReturnType<typeof whatsAppPatient>>) {
  const { business, patient, digits } = target;
  await page.goto(`/businesses/${business.id}/patients/${patient.id}`);
  const row = page.locator('.details__item', { hasText: 'WhatsApp' });
  await expect(row).toContainText('Not opted in');
  await row.getByRole('button', { name: 'Send WhatsApp code' }).click();

  const dialog = page.getByRole('dialog', { name: 'Enter WhatsApp code' });
  await expect(dialog).toContainText(`A code was sent by WhatsApp to 07••• •••${digits.slice(-3)}`);
  const message = await whatsAppTo(`4477009${digits}`);
  expect(message.text).toContain(`Your ${business.name} code to get your pharmacy messages on WhatsApp is`);
  const code = /is (\d{3}) (\d{3})\./.exec(message.text);
  if (!code) throw new Error(`no code in '${message.text}'`);
  const right = `${code[1]}${code[2]}`;
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');

  await dialog.getByLabel('Code').fill(wrong);
  await dialog.getByRole('button', { name: 'Opt in' }).click();
  await expect(dialog).toContainText('The code is wrong. Check it with the patient and try again (4 tries left).');

  await dialog.getByLabel('Code').fill(`${code[1]} ${code[2]}`);
  await dialog.getByRole('button', { name: 'Opt in' }).click();
  await expect(dialog).toBeHidden();
  const optedIn = `Opted in on 07700 9${digits} since ${formatDate(Date.now())}`;
  await expect(row).toContainText(optedIn);
  await expect(row.getByRole('button', { name: 'Send WhatsApp code' })).toHaveCount(0);
  // Stored, not just shown: a fresh load says the same.
  await page.reload();
  await expect(page.locator('.details__item', { hasText: 'WhatsApp' })).toContainText(optedIn);
}

test('support staff opt a patient in to WhatsApp with the code the patient received; no button where WhatsApp is off', async ({
  page,
}) => {
  const target = await whatsAppPatient();
  const off = await whatsAppPatient({ whatsApp: false });
  await logInAsAdmin(page);

  await page.goto(`/businesses/${off.business.id}/patients/${off.patient.id}`);
  const offRow = page.locator('.details__item', { hasText: 'WhatsApp' });
  await expect(offRow).toContainText('Not opted in');
  await expect(page.getByRole('heading', { name: 'Wanda Whats' })).toBeVisible();
  await expect(offRow.getByRole('button', { name: 'Send WhatsApp code' })).toHaveCount(0);

  await optInOnPatientPage(page, target);
  const row = page.locator('.details__item', { hasText: 'WhatsApp' });
  await expect(row).toContainText('Recorded by Sam Support');

  // The patient changes their mind: opted out after a confirmation, and a code can be sent again.
  await row.getByRole('button', { name: 'Opt out' }).click();
  await page
    .getByRole('alertdialog', { name: 'Opt out of WhatsApp?' })
    .getByRole('button', { name: 'Opt out' })
    .click();
  await expect(row).toContainText('Opted out: their messages go by text or email again.');
  await expect(row).toContainText('Not opted in');
  await expect(row.getByRole('button', { name: 'Send WhatsApp code' })).toBeVisible();
  await page.reload();
  await expect(page.locator('.details__item', { hasText: 'WhatsApp' })).toContainText('Not opted in');
});

test('a pharmacy user opts a patient of their business in to WhatsApp', async ({ page }) => {
  const target = await whatsAppPatient();
  const user = await createUser({ role: { name: 'Business', resource: target.business.id, accessLevels: [] } });
  // Named already, so the first sign-in goes straight in (the complete-profile screen is another test's).
  const api = await signedInApi(user.email, user.password);
  try {
    await call(api, 'users/updateUser', { id: user.userId, givenName: 'Priya', familyName: 'Pharmacist' });
  } finally {
    await api.dispose();
  }
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });

  await optInOnPatientPage(page, target);
  await expect(page.locator('.details__item', { hasText: 'WhatsApp' })).toContainText('Recorded by Priya Pharmacist');
});
