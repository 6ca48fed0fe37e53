import { readFile } from 'node:fs/promises';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  signInAsNew,
  test,
} from './harness/fixtures.ts';

/** The audit trail (support: every entry; pharmacy Admins: their businesses'), its CSV and "who looked". */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const patientOf = async (businessId: string, family: string) =>
  (
    await asAdmin<{ patient: { id: string } }>('patients/create', {
      businessId,
      patient: { displayId: `A-${family}`, name: { full: `Ada ${family}` }, mobileNumber: '+447700900001' },
    })
  ).patient.id;

test('support opens who looked at a patient from the patient page, searches the trail and exports it as CSV', async ({
  page,
}) => {
  const business = await createBusiness();
  const patientId = await patientOf(business.id, 'Lovelace');
  await logInAsAdmin(page, `/businesses/${business.id}/patients/${patientId}`);
  await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();

  await page.getByRole('link', { name: 'Who looked at this patient' }).click();
  await expect(page).toHaveURL(new RegExp(`/audit\\?patient=${patientId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const list = page.getByRole('table', { name: 'Audit entries' });
  await expect(list.getByRole('row').nth(1)).toContainText('Patient record opened');
  await expect(list.getByRole('row').nth(1)).toContainText('127.0.0.1');
  await expect(list.getByRole('row', { name: /Patient added/ })).toBeVisible();
  await expect(page.getByLabel('Patient id')).toHaveValue(patientId);

  // Narrowed to one action, then exported.
  await page.getByLabel('Action').fill('patient.create');
  await expect(list.getByRole('row')).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toContain('"When","Who","User id","What","Action"');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('"Patient added","patient.create"');
  expect(lines[1]).toContain(patientId);

  // The search itself is in the trail.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Action').fill('audit.export');
  await expect(list.getByRole('row').nth(1)).toContainText('Audit trail exported');
});

test("a pharmacy Admin reads only their business's entries, and who looked at their patient", async ({ page }) => {
  const own = await createBusiness();
  const other = await createBusiness();
  const ownPatient = await patientOf(own.id, 'Own');
  const otherPatient = await patientOf(other.id, 'Other');
  const user = await createUser({ role: { name: 'Business', resource: own.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user);

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Audit trail' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const list = page.getByRole('table', { name: 'Audit entries' });
  await expect(list.getByRole('row', { name: /Patient added/ })).toHaveCount(1);
  await expect(list).toContainText(ownPatient);
  await expect(list).not.toContainText(otherPatient);
  // No business filter for them: their businesses are the whole of what they read.
  await expect(page.getByLabel('Business id')).toHaveCount(0);

  // Another business's patient finds nothing.
  await page.getByLabel('Patient id').fill(otherPatient);
  await expect(page.getByText('No audit entries found')).toBeVisible();

  await page.goto(`/businesses/${own.id}/patients/${ownPatient}`);
  await page.getByRole('link', { name: 'Who looked at this patient' }).click();
  await expect(list.getByRole('row').nth(1)).toContainText('Patient record opened');
  await expect(list.getByRole('row').nth(1)).toContainText('Pat Pharmacist');
});

test('pharmacy staff without Admin have no audit trail entry and are refused the page', async ({ page }) => {
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await signInAsNew(page, user);
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Audit trail' }),
  ).toHaveCount(0);
  await page.goto('/audit');
  // The api answers 403: the console's Access Restricted screen.
  await expect(page.getByText(/You do not have access to this area/)).toBeVisible();
});
