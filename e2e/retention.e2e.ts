import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  oldAuditEntries,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * Retention, erasure and a patient's own data (docs/decisions/retention.md): support sets the product's
 * retention policy on Global Settings and a pharmacy Admin their business's periods, each seeing what the
 * next nightly run would remove; both download a patient's data (the ZIP is read here) and erase a patient.
 */

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

async function patientOf(businessId: string, given: string) {
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given, family: 'Subject' },
      mobileNumber: '07700 900456',
      email: 'subject@example.com',
      dateOfBirth: '1970-05-06',
    },
  });
  return patient.id;
}

/** Downloads the patient's data from their page and answers the ZIP's files as text. */
async function downloadPatientData(page: Page) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download patient data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^patient-data-.*\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) ?? '')));
  return (name: string) => strFromU8(files[name] ?? new Uint8Array());
}

/** Erases the patient from their page, through the confirmation, and lands on the list with the notice. */
async function erase(page: Page, name: string) {
  await page.getByRole('button', { name: 'Erase patient' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Erase patient?' });
  await expect(dialog).toContainText('This cannot be undone.');
  await dialog.getByRole('button', { name: 'Erase patient' }).click();
  await expect(page.getByText(`${name} was erased.`)).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
}

test('support sets the retention policy and sees the preview; downloads a patient’s data and erases them', async ({
  page,
}) => {
  const business = await createBusiness();
  await oldAuditEntries(business.id, 3000, 3);
  const patientId = await patientOf(business.id, 'Sally');
  await logInAsAdmin(page, '/globalSettings');
  const policy = page.getByRole('region', { name: 'Retention policy' });
  await expect(policy.getByLabel('Keep audit entries for (days)')).toHaveValue('2190');
  const preview = page.getByRole('region', { name: 'The next run would remove' });
  const auditCount = preview.locator('.details__item').filter({ hasText: 'Audit entries to delete' }).locator('dd');
  await expect.poll(async () => Number((await auditCount.textContent())?.replace(/,/g, ''))).toBeGreaterThanOrEqual(3);
  // Out of bounds: refused beside the field.
  await policy.getByLabel('Keep audit entries for (days)').fill('100');
  await policy.getByRole('button', { name: 'Save retention policy' }).click();
  await expect(policy.getByText('Invalid range, value must be an integer between 365 and 7300')).toBeVisible();
  // Twenty years: nothing is that old.
  await policy.getByLabel('Keep audit entries for (days)').fill('7300');
  await policy.getByRole('button', { name: 'Save retention policy' }).click();
  await expect(page.getByText('Retention policy saved.')).toBeVisible();
  await expect(auditCount).toHaveText('0');
  await policy.getByLabel('Keep audit entries for (days)').fill('2190');
  await policy.getByRole('button', { name: 'Save retention policy' }).click();
  await expect.poll(async () => Number((await auditCount.textContent())?.replace(/,/g, ''))).toBeGreaterThanOrEqual(3);

  await page.goto(`/businesses/${business.id}/patients/${patientId}`);
  await expect(page.getByRole('heading', { name: 'Sally Subject' })).toBeVisible();
  const file = await downloadPatientData(page);
  expect(file('summary.html')).toContain('Data held about Sally Subject');
  const json = JSON.parse(file('data.json'));
  expect(json.patient).toMatchObject({ id: patientId, fullName: 'Sally Subject', email: 'subject@example.com' });
  expect(json.auditEntries.map((a: { action: string }) => a.action)).toContain('patient.create');
  await erase(page, 'Sally Subject');
  const { patient } = await asAdmin<{ patient: { name: string; email: string | null } }>('patients/get', {
    id: patientId,
  });
  expect([patient.name, patient.email]).toEqual(['Erased patient', null]);
});

test('a pharmacy Admin sets their business’s retention and sees the preview; downloads and erases a patient', async ({
  page,
}) => {
  const business = await createBusiness();
  await oldAuditEntries(business.id, 3000, 4);
  const patientId = await patientOf(business.id, 'Peter');
  const manager = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, manager, { first: 'Mandy', last: 'Manager' }, `/businesses/${business.id}/settings`);
  await page.getByRole('link', { name: 'Retention' }).click();
  await expect(page.getByRole('heading', { name: 'Retention' })).toBeVisible();
  const field = page.getByLabel('Keep audit entries for (days)');
  await expect(field).toHaveValue('');
  const auditCount = page
    .getByRole('region', { name: 'The next run would remove' })
    .locator('.details__item')
    .filter({ hasText: 'Audit entries to delete' })
    .locator('dd');
  await expect(auditCount).toHaveText('4');
  await field.fill('5000');
  await page.getByRole('button', { name: 'Save retention' }).click();
  await expect(page.getByText('Retention saved.')).toBeVisible();
  await expect(auditCount).toHaveText('0');
  await field.fill('');
  await page.getByRole('button', { name: 'Save retention' }).click();
  await expect(auditCount).toHaveText('4');

  await page.goto(`/businesses/${business.id}/patients/${patientId}`);
  await expect(page.getByRole('heading', { name: 'Peter Subject' })).toBeVisible();
  const file = await downloadPatientData(page);
  expect(JSON.parse(file('data.json')).patient.fullName).toBe('Peter Subject');
  await erase(page, 'Peter Subject');
});
