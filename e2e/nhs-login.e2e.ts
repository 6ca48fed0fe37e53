import type { Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createNhsBusiness,
  createUser,
  logInAsAdmin,
  signInAsNew,
  test,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * NHS login for patients against the harness's local NHS login (private_key_jwt, RS512, vtr/vot,
 * nhs_number and birthdate): a pharmacy switches it on (support, and the pharmacy's own Admin), a
 * patient presses Continue with NHS login, signs in there and sees their order; one whose NHS login
 * does not match is told so and offered the other ways.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

const NHS_NUMBER = '9434765919';
const DATE_OF_BIRTH = '1985-03-27';

/** A business whose patient ID is the NHS number, with a patient and an order; NHS login on unless told. */
async function estate(options: { nhsLogin?: boolean } = {}) {
  const business = await createNhsBusiness();
  if (options.nhsLogin !== false) {
    await asAdmin('businessSettings/updateBusinessFeatureSettings', {
      businessId: business.id,
      settings: { nhsLogin: { enabled: true } },
    });
  }
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId: business.id,
    patient: {
      displayId: NHS_NUMBER,
      name: { given: 'Nia', family: 'Hughes' },
      mobileNumber: '07700 900123',
      dateOfBirth: DATE_OF_BIRTH,
    },
  });
  const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
    businessId: business.id,
    patientId: patient.id,
    barcode: uniqueName('NHS').replace(' ', '-').toUpperCase(),
  });
  return { business, orderId: order.id };
}

/** Signs in at the local NHS login as `<nhs number>/<birth date>/<vot>`. */
async function signInAtNhsLogin(page: Page, login: string) {
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('at-nhs-login');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a patient continues with NHS login and sees their order without typing anything of theirs', async ({
    page,
  }) => {
    const { orderId } = await estate();
    await page.goto(`/p/${orderId}`);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with NHS login' })).toBeVisible();
    await accessible(page, 'the identity check with NHS login');

    await page.getByRole('button', { name: 'Continue with NHS login' }).click();
    await signInAtNhsLogin(page, `${NHS_NUMBER}/${DATE_OF_BIRTH}/P9.Cp.Cd`);
    await expect(page).toHaveURL(new RegExp(`/p/${orderId}$`));
    await expect(page.getByRole('heading', { name: /^Your order from / })).toBeVisible();
    await expect(page.getByText('Hello Nia')).toBeVisible();
  });

  test('a patient whose NHS login does not match the order is told so and offered the other ways', async ({ page }) => {
    const { orderId } = await estate();
    await page.goto(`/p/${orderId}`);
    await page.getByRole('button', { name: 'Continue with NHS login' }).click();
    await signInAtNhsLogin(page, `9434765927/${DATE_OF_BIRTH}/P9.Cp.Cd`);
    await expect(page).toHaveURL(new RegExp(`/p/${orderId}$`));
    const summary = page.getByRole('alert');
    await expect(summary).toContainText('Your NHS login details do not match this order.');
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await expect(page.getByLabel('Day')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Text me a code instead' })).toBeVisible();
    await accessible(page, 'a mismatched NHS login');

    // A low vector of trust (no verified NHS number) is refused in words too. (Signed out at NHS login
    // first: its session would sign the first account in again.)
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Continue with NHS login' }).click();
    await signInAtNhsLogin(page, `${NHS_NUMBER}/${DATE_OF_BIRTH}/P5.Cp.Cd`);
    await expect(page.getByRole('alert')).toContainText('Your NHS login has not been fully verified');

    // The other ways still work.
    await page.getByLabel('Day').fill('27');
    await page.getByLabel('Month').fill('3');
    await page.getByLabel('Year').fill('1985');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByRole('heading', { name: /^Your order from / })).toBeVisible();
  });

  test('NHS login is not offered where the business has not switched it on', async ({ page }) => {
    const { orderId } = await estate({ nhsLogin: false });
    await page.goto(`/p/${orderId}`);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Text me a code instead' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with NHS login' })).toHaveCount(0);
  });
});

/** The feature settings page's NHS login switch, turned on and saved. */
async function switchOn(page: Page, businessId: string) {
  await page.goto(`/businesses/${businessId}/settings/features`);
  const nhsSwitch = page.getByRole('switch', { name: 'Patients can continue with NHS login' });
  await expect(nhsSwitch).not.toBeChecked();
  await expect(nhsSwitch).toBeEnabled();
  await page.locator('label.switch', { hasText: 'Patients can continue with NHS login' }).click();
  await expect(nhsSwitch).toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Feature settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Patients can continue with NHS login' })).toBeChecked();
  const read = await asAdmin<{ settings: { nhsLogin: { enabled: boolean } } }>(
    'businessSettings/getBusinessFeatureSettings',
    { businessId },
  );
  expect(read.settings.nhsLogin.enabled).toBe(true);
}

test('support switches NHS login on for a pharmacy whose patient ID is the NHS number', async ({ page }) => {
  const business = await createNhsBusiness();
  await logInAsAdmin(page);
  await switchOn(page, business.id);
});

test("a pharmacy's Admin switches NHS login on for their own pharmacy", async ({ page }) => {
  const business = await createNhsBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user);
  await switchOn(page, business.id);
});
