import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createNhsBusiness,
  logInAsAdmin,
  test,
  uniqueEmail,
} from './harness/fixtures.ts';

/** The sign-ups list under a business's patients (SPEC §2, §4): waiting or past; Convert, Edit and Delete. */

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
  const business = await createNhsBusiness();
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

  await logInAsAdmin(page, `/businesses/${business.id}/patients`);
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
  // The filter is in the URL: a reload shows the same list.
  await expect(page).toHaveURL(/\?past=true$/);
  await page.reload();
  await expect(list.getByRole('row', { name: /Grace Hopper/ })).toContainText('rejected');
  await past.click();
  await expect(page).not.toHaveURL(/past=/);
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

/** Logs in as the admin and opens the business's sign-ups. */
async function openSignUps(page: Page, businessId: string) {
  await logInAsAdmin(page, `/businesses/${businessId}/patients/signUps`);
  return page.getByRole('table', { name: 'Sign-ups' });
}

test("a sign-up is edited in a dialog: the server's messages beside the fields, then a save that stays", async ({
  page,
}) => {
  const business = await createBusiness();
  await signUp(business.id, {
    firstName: 'Ed',
    lastName: 'Edits',
    dateOfBirth: '1990-12-10',
    email: uniqueEmail('ed'),
    mobileNumber: '07700 900131',
    address: { line1: '2 Low Street', postTown: 'York' },
  });
  const list = await openSignUps(page, business.id);

  await list.getByRole('button', { name: 'Edit Ed Edits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Ed Edits' });
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await expect(field('First name')).toHaveValue('Ed');
  await expect(field('Date of birth')).toHaveValue('10-12-1990');
  await expect(field('Mobile')).toHaveValue('+447700900131');
  await expect(field('Address line 1')).toHaveValue('2 Low Street');

  // SPEC §5's form words, each beside its field; nothing is saved.
  await field('First name').fill('');
  await field('Mobile').fill('01234 567890');
  await field('Postcode').fill('nowhere');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(field('First name')).toHaveAccessibleDescription('Please enter a value');
  await expect(field('Mobile')).toHaveAccessibleDescription(/Invalid UK mobile number/);
  await expect(field('Postcode')).toHaveAccessibleDescription('Invalid UK postcode');

  await field('First name').fill('Edwina');
  await field('Mobile').fill('07700 900132');
  await field('Postcode').fill('yo1 7hh');
  await field('Address line 1').fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Edwina Edits's sign-up was saved.")).toBeVisible();
  await expect(list.getByRole('row', { name: /Edwina Edits/ })).toContainText('+447700900132');

  // Stored: the list and the form say the same after a reload.
  await page.reload();
  await expect(list.getByRole('row', { name: /Edwina Edits/ })).toContainText('+447700900132');
  await list.getByRole('button', { name: 'Edit Edwina Edits' }).click();
  const again = page.getByRole('dialog', { name: 'Edit Edwina Edits' });
  await expect(again.getByRole('textbox', { name: 'Postcode' })).toHaveValue('YO1 7HH');
  await expect(again.getByRole('textbox', { name: 'Address line 1' })).toHaveValue('');
  await expect(again.getByRole('textbox', { name: 'Post town' })).toHaveValue('York');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toHaveCount(0);
});

test('a sign-up without a mobile is sent from Convert to Edit, given one, and converted', async ({ page }) => {
  const business = await createBusiness();
  await signUp(business.id, { firstName: 'Mo', lastName: 'Mailonly', email: uniqueEmail('mo') });
  const list = await openSignUps(page, business.id);

  await list.getByRole('button', { name: 'Convert Mo Mailonly' }).click();
  const convert = page.getByRole('dialog', { name: 'Convert Mo Mailonly' });
  await convert.getByRole('textbox', { name: 'ID' }).fill('MO-1');
  await convert.getByRole('button', { name: 'Convert' }).click();
  await expect(convert.getByText('A patient needs a mobile number, and this sign-up has none.')).toBeVisible();
  await convert.getByRole('button', { name: 'Edit sign-up' }).click();
  await expect(convert).toHaveCount(0);

  const edit = page.getByRole('dialog', { name: 'Edit Mo Mailonly' });
  const mobile = edit.getByRole('textbox', { name: 'Mobile', exact: true });
  await expect(mobile).toHaveValue('');
  await mobile.fill('07700 900133');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(list.getByRole('row', { name: /Mo Mailonly/ })).toContainText('+447700900133');

  await list.getByRole('button', { name: 'Convert Mo Mailonly' }).click();
  await convert.getByRole('textbox', { name: 'ID' }).fill('MO-1');
  await convert.getByRole('button', { name: 'Convert' }).click();
  await expect(page.getByRole('heading', { name: 'Mo Mailonly' })).toBeVisible();
  await expect(page.getByText('Sign-up converted.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '+447700900133' })).toBeVisible();
});

test('a sign-up is deleted only once the confirmation is accepted', async ({ page }) => {
  const business = await createBusiness();
  await signUp(business.id, { firstName: 'Del', lastName: 'Gone', mobileNumber: '07700 900134' });
  await signUp(business.id, { firstName: 'Kay', lastName: 'Stays', mobileNumber: '07700 900135' });
  const list = await openSignUps(page, business.id);
  await expect(list.getByRole('row')).toHaveCount(3);

  // Keep sign-up leaves it.
  await list.getByRole('button', { name: 'Delete Del Gone' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete sign-up?' });
  await expect(confirm).toContainText("Del Gone's sign-up will be removed.");
  await confirm.getByRole('button', { name: 'Keep sign-up' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(list.getByRole('row', { name: /Del Gone/ })).toBeVisible();

  await list.getByRole('button', { name: 'Delete Del Gone' }).click();
  await confirm.getByRole('button', { name: 'Delete sign-up' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByText("Del Gone's sign-up was deleted.")).toBeVisible();
  await expect(list.getByRole('row', { name: /Del Gone/ })).toHaveCount(0);
  await expect(list.getByRole('row')).toHaveCount(2);

  // Gone for good: not among the past ones either.
  await page.reload();
  await expect(list.getByRole('row', { name: /Kay Stays/ })).toBeVisible();
  await expect(list.getByRole('row', { name: /Del Gone/ })).toHaveCount(0);
  await page.locator('label.switch', { hasText: 'Show past sign-ups' }).click();
  await expect(page.getByText('No past sign-ups.')).toBeVisible();
});
