import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createNhsBusiness,
  logInAsAdmin,
  test,
} from './harness/fixtures.ts';

/** The patient list (SPEC §2): search anywhere in a name, only current, details, delete with confirmation. */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 90_000 });

test('patients are found by any part of their name, shown with grouped NHS numbers, and deleted after a confirmation', async ({
  page,
}) => {
  const business = await createBusiness();
  await asAdmin('patients/batchUpsertPatients', {
    businessId: business.id,
    patients: [
      {
        displayId: '9434765919',
        name: { full: 'Alice Able' },
        mobileNumber: '+447700900001',
        dateOfBirth: '1980-02-03',
      },
      {
        displayId: '9434765927',
        name: { full: 'Bob Baker' },
        mobileNumber: '+447700900002',
        dateOfBirth: '1975-11-30',
      },
      { displayId: 'LOCAL-7', name: { full: 'Bella Brown' }, mobileNumber: '+447700900003' },
    ],
  });

  await logInAsAdmin(page, `/businesses/${business.id}/patients`);
  const list = page.getByRole('table', { name: 'Patients' });
  await expect(list.getByRole('row')).toHaveCount(4);

  // Any part of a name, in any case.
  await page.getByRole('searchbox', { name: 'Search' }).fill('ROWN');
  await expect(list.getByRole('link', { name: 'Alice Able' })).toHaveCount(0);
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list.getByRole('link', { name: 'Bella Brown' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('Bob');
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list.getByRole('row').nth(1)).toContainText('943 476 5927');
  await expect(list.getByRole('row').nth(1)).toContainText('30-11-1975');

  // Only with issues: nobody here has had a failed message.
  await page.locator('label.switch', { hasText: 'Only with issues' }).click();
  await expect(page.getByText('No patients found.')).toBeVisible();
  await page.locator('label.switch', { hasText: 'Only with issues' }).click();

  await list.getByRole('link', { name: 'Bob Baker' }).click();
  await expect(page.getByRole('heading', { name: 'Bob Baker' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '943 476 5927' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '30-11-1975' })).toBeVisible();

  // Keep patient leaves it; Delete patient deletes it.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete patient?' });
  await confirm.getByRole('button', { name: 'Keep patient' }).click();
  await expect(confirm).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete patient' }).click();
  await expect(page.getByText('Bob Baker was deleted.')).toBeVisible();

  // Gone from the current patients; still there with 'Only current' off.
  await expect(list.getByRole('link', { name: /Bob Baker/ })).toHaveCount(0);
  await page.locator('label.switch', { hasText: 'Only current' }).click();
  await expect(list.getByRole('link', { name: 'Bob Baker (deleted)' })).toBeVisible();
  await page.locator('label.switch', { hasText: 'Only current' }).click();

  // The filters are kept for the session.
  await page.goto(`/businesses/${business.id}/patients`);
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('Bob');
});

test('a patient imported with given and family names is still found by surname after an edit', async ({ page }) => {
  const business = await createBusiness();
  await asAdmin('patients/batchUpsertPatients', {
    businessId: business.id,
    patients: [
      {
        displayId: '9990000018',
        name: { given: 'Imogen', family: 'Featherstonehaugh' },
        mobileNumber: '+447700900011',
      },
    ],
  });

  await logInAsAdmin(page, `/businesses/${business.id}/patients`);
  const list = page.getByRole('table', { name: 'Patients' });
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('Feather');
  await list.getByRole('link', { name: 'Imogen Featherstonehaugh' }).click();

  // Edit something other than the name: the form shows and sends the name as one field.
  await page.getByRole('region', { name: 'Imogen Featherstonehaugh' }).getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Imogen Featherstonehaugh');
  await page.getByRole('textbox', { name: 'Email' }).fill('imogen@example.com');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Patient saved.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'imogen@example.com' })).toBeVisible();

  // Searched by surname (not the start of the full name), the patient is still there.
  await page.goto(`/businesses/${business.id}/patients`);
  await search.fill('Featherston');
  await expect(list.getByRole('link', { name: 'Imogen Featherstonehaugh' })).toBeVisible();
  await expect(list.getByRole('row')).toHaveCount(2);
});

test("the edit form shows the server's form messages beside each field, not the import's row messages", async ({
  page,
}) => {
  const business = await createNhsBusiness();
  const { results } = await asAdmin<{ results: { id: string }[] }>('patients/batchUpsertPatients', {
    businessId: business.id,
    patients: [{ displayId: '9434765919', name: { full: 'Cara Clay' }, mobileNumber: '+447700900021' }],
  });

  await logInAsAdmin(page, `/businesses/${business.id}/patients/${results[0]?.id}/edit`);
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await expect(field('Name')).toHaveValue('Cara Clay');

  await field('ID').fill('943 476 5918');
  await field('Name').fill('');
  await field('Date of birth').fill('2999-01-01');
  await field('Email').fill('cara@');
  await field('Mobile').fill('01234 567890');
  await field('Postcode').fill('nowhere');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(field('ID')).toHaveAccessibleDescription('Invalid NHS/CHI number');
  await expect(field('Name')).toHaveAccessibleDescription('Please enter a value');
  await expect(field('Date of birth')).toHaveAccessibleDescription(/Date must be in the past/);
  await expect(field('Email')).toHaveAccessibleDescription('Enter a valid email address');
  await expect(field('Mobile')).toHaveAccessibleDescription('Invalid UK mobile number');
  await expect(field('Postcode')).toHaveAccessibleDescription('Invalid UK postcode');
  await expect(page.getByText(/missing name|invalid mobile number|email address not valid/)).toHaveCount(0);

  // A bad date and a blank mobile, in their own words; typing in a field clears its message.
  await field('Date of birth').fill('31-02-1990');
  await field('Mobile').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(field('Date of birth')).toHaveAccessibleDescription(/Invalid date/);
  await expect(field('Mobile')).toHaveAccessibleDescription('Please enter a value');
  await field('Mobile').fill('07700 900021');
  await expect(field('Mobile')).toHaveAccessibleDescription('');

  await field('ID').fill('943 476 5919');
  await field('Name').fill('Cara Clay');
  await field('Date of birth').fill('01-02-1990');
  await field('Email').fill('cara@example.com');
  await field('Postcode').fill('ls1 4ap');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Patient saved.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '01-02-1990' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'LS1 4AP' })).toBeVisible();
});
