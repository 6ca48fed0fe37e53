import { admin, asAdmin, expect as baseExpect, createBusiness, logIn, test, uniqueEmail } from './harness/fixtures.ts';

/** The sign-ups list under a business's patients (SPEC §2, §4): waiting or past, and Convert to a patient. */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

type SignUp = { id: string; firstName: string; lastName: string };

async function signUp(businessId: string, form: Record<string, unknown>): Promise<SignUp> {
  const { signUp } = await asAdmin<{ signUp: SignUp }>('signUps/create', { businessId, signUp: form });
  return signUp;
}

test('waiting and past sign-ups are listed apart, and a sign-up is converted to a patient under an ID', async ({
  page,
}) => {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId: business.id,
    settings: { displayIdField: { name: 'NHS number', required: true, validateNhsNumber: true } },
  });
  await signUp(business.id, {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1990-12-10',
    email: uniqueEmail('ada'),
    mobileNumber: '07700 900123',
    address: { line1: '1 High Street', postTown: 'Leeds', postcode: 'ls1 4ap' },
  });
  const grace = await signUp(business.id, { firstName: 'Grace', lastName: 'Hopper', mobileNumber: '07700900124' });
  await asAdmin('signUps/update', {
    id: grace.id,
    signUp: { firstName: 'Grace', lastName: 'Hopper', mobileNumber: '07700900124' },
    status: 'rejected',
  });
  // An email only: a patient needs a mobile (SPEC §5), so this one cannot be converted yet.
  await signUp(business.id, { firstName: 'Mo', lastName: 'Mailonly', email: uniqueEmail('mo') });

  await page.goto('/auth/login');
  await logIn(page, admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto(`/businesses/${business.id}/patients`);
  await page.getByRole('link', { name: 'Sign-ups' }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/patients/signUps$`));

  // Waiting ones (new, validated) by default; past ones (confirmed, rejected) with the toggle.
  const list = page.getByRole('table', { name: 'Sign-ups' });
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(list.getByRole('row', { name: /Ada Lovelace/ })).toContainText('10-12-1990');
  await expect(list.getByRole('row', { name: /Ada Lovelace/ })).toContainText('+447700900123');
  await expect(list.getByRole('row', { name: /Grace Hopper/ })).toHaveCount(0);
  const past = page.locator('label.switch', { hasText: 'Show past sign-ups' });
  await past.click();
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list.getByRole('row', { name: /Grace Hopper/ })).toContainText('rejected');
  await expect(list.getByRole('button', { name: /^Convert/ })).toHaveCount(0);
  await past.click();
  await expect(list.getByRole('row', { name: /Ada Lovelace/ })).toBeVisible();

  // A sign-up without a mobile says why it cannot become a patient, not beside the ID it was given.
  await list.getByRole('button', { name: 'Convert Mo Mailonly' }).click();
  const moDialog = page.getByRole('dialog', { name: 'Convert Mo Mailonly' });
  await moDialog.getByRole('textbox', { name: 'ID' }).fill('943 476 5919');
  await moDialog.getByRole('button', { name: 'Convert' }).click();
  await expect(moDialog.getByText('A patient needs a mobile number, and this sign-up has none.')).toBeVisible();
  await expect(moDialog.getByRole('textbox', { name: 'ID' })).toHaveAccessibleDescription(
    "The patient's ID in this business, often their NHS number.",
  );
  await moDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(moDialog).toHaveCount(0);

  // The business's rules apply to the ID: its words beside the field, then the patient.
  await list.getByRole('button', { name: 'Convert Ada Lovelace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Convert Ada Lovelace' });
  const id = dialog.getByRole('textbox', { name: 'ID' });
  await id.fill('943 476 5918');
  await dialog.getByRole('button', { name: 'Convert' }).click();
  await expect(id).toHaveAccessibleDescription(/Invalid NHS\/CHI number/);
  await id.fill('943 476 5919');
  await dialog.getByRole('button', { name: 'Convert' }).click();

  await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
  await expect(page.getByText('Sign-up converted.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '943 476 5919' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '10-12-1990' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'LS1 4AP' })).toBeVisible();

  // No longer waiting: past, as confirmed; the list keeps the toggle for the session.
  await page.goto(`/businesses/${business.id}/patients/signUps`);
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list.getByRole('row', { name: /Ada Lovelace/ })).toHaveCount(0);
  await past.click();
  await expect(list.getByRole('row', { name: /Ada Lovelace/ })).toContainText('confirmed');
  await page.reload();
  await expect(past.getByRole('switch')).toBeChecked();
  await expect(list.getByRole('row')).toHaveCount(3);
});
