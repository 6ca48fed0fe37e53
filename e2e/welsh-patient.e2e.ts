import type { Page } from '@playwright/test';
import { expectAccessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  mailTo,
  pairedLocker,
  type SimulatedLocker,
  stopLocker,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';
import { e2eJudoCards } from './harness/judopay.ts';

/*
 * The rest of a Welsh patient's page in Welsh: paying by card and the receipt (on the page and in the
 * email) at a Welsh pharmacy (no prescription charges in Wales: a retail charge); declaring an NHS
 * exemption in Welsh at an English pharmacy, the patient having pressed Cymraeg; and a Welsh
 * pharmacy's sign-up page, which opens in Welsh before the patient has chosen anything, and its code
 * email in Welsh and English; and the same page switched to English, whose code comes in English alone.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

const DATE_OF_BIRTH = { day: '3', month: '9', year: '1984', iso: '1984-09-03' };

/**
 * A pharmacy taking cards (the local Judopay) with an order loaded for a patient with `email` (their
 * order's text goes by SMS; a receipt goes to the email address). In Wales, with Welsh for its patients
 * and a £4.50 retail charge; in England, in English, with the £9.90 prescription charge.
 */
async function chargedOrder(email: string, nation: 'wales' | 'england') {
  const business = await createBusiness();
  const businessId = business.id;
  const welsh = nation === 'wales';
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId,
    settings: welsh
      ? { nation, patientLanguage: 'cy', retailCharges: { enabled: true } }
      : { nation, charges: { enabled: true } },
  });
  await asAdmin('paymentSettings/updatePaymentSettings', {
    businessId,
    contactNumber: '029 2018 0000',
    legalInfo: 'Fferyllfa E2E Cyf',
    ...e2eJudoCards({ showVisa: true, showAmex: true, showMastercard: true }),
  });
  const { machine } = await asAdmin<{ machine: { id: string } }>('machines/createMachine', {
    businessId,
    name: uniqueName('Drws'),
    numberOfSlots: 40,
    paymentsEnabled: true,
  });
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Gwenllian', family: 'Prys' },
      mobileNumber: `07700 9${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`,
      email,
      dateOfBirth: DATE_OF_BIRTH.iso,
    },
  });
  const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
  const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
    businessId,
    patientId: patient.id,
    machineId: machine.id,
    barcode,
    ...(welsh ? { retailCharge: '4.50' } : { prescriptionCharge: '9.90' }),
  });
  locker = await pairedLocker(machine.id);
  await locker.control({ do: 'loadBag', barcode, location: 'A2' });
  return { business, orderId: order.id };
}

/** The identity check (in English until the patient is known), then their order, in Welsh. */
async function openInWelsh(page: Page, orderId: string, businessName: string, press = false) {
  await page.goto(`/p/${orderId}`);
  await page.getByLabel('Day').fill(DATE_OF_BIRTH.day);
  await page.getByLabel('Month').fill(DATE_OF_BIRTH.month);
  await page.getByLabel('Year').fill(DATE_OF_BIRTH.year);
  await page.getByRole('button', { name: 'Continue' }).click();
  if (press) {
    await expect(page.getByRole('heading', { level: 1, name: `Your order from ${businessName}` })).toBeVisible();
    await page.getByRole('button', { name: 'Cymraeg' }).click();
  }
  await expect(page.getByRole('heading', { level: 1, name: `Eich archeb gan ${businessName}` })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'cy-GB');
}

test('a Welsh pharmacy’s patient pays by card in Welsh and has their receipt, on the page and by email, in Welsh', async ({
  page,
}) => {
  const email = uniqueEmail('gwenllian');
  const made = await chargedOrder(email, 'wales');
  await openInWelsh(page, made.orderId, made.business.name);
  await expect(page.getByText('Yn barod ar ôl talu')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Talu £4.50' })).toBeVisible();
  await expect(page.getByText('Mae £4.50 i’w dalu am yr archeb hon.')).toBeVisible();
  // No prescription charge in Wales: nothing to declare.
  await expect(page.getByRole('button', { name: 'Datgan esemptiad' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Talu â cherdyn' })).toHaveAccessibleDescription(
    'Cardiau a dderbynnir: Visa, Mastercard ac American Express',
  );
  // Welsh day and month names in the order's dates.
  await expect(
    page
      .getByText(
        /^\d\d:\d\d, Dydd \w+, \d{1,2} (Ionawr|Chwefror|Mawrth|Ebrill|Mai|Mehefin|Gorffennaf|Awst|Medi|Hydref|Tachwedd|Rhagfyr)/,
      )
      .first(),
  ).toBeVisible();
  await expectAccessible(page, 'an unpaid order in Welsh');

  await page.getByRole('button', { name: 'Talu â cherdyn' }).click();
  // Judopay's hosted page (the local one) is Judopay's own, in English.
  await expect(page.getByRole('heading', { name: 'Pay £4.50' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  await expect(page.getByText('Cafwyd y taliad. Diolch.')).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
  await expect(page.getByText('Talwyd £4.50 â cherdyn')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'cy-GB');
  await page.getByRole('button', { name: 'Anfon derbynneb ataf' }).click();
  await expect(page.getByText(/^Anfonwyd y dderbynneb drwy e-bost i g•••@/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ei hanfon eto' })).toBeVisible();
  await expectAccessible(page, 'a paid order and its receipt in Welsh');

  const mail = await mailTo(email, 20_000);
  expect(mail.subject).toMatch(new RegExp(`^Eich derbynneb gan ${made.business.name} \\(archeb [^)]+\\)$`));
  expect(mail.text).toContain(`Derbynneb gan ${made.business.name}`);
  expect(mail.text).toContain('Swm a dalwyd: £4.50 â cherdyn');
  expect(mail.text).toMatch(/Dyddiad: \d\d? \p{L}+ \d{4} am \d\d:\d\d/u);
  expect(mail.text).not.toContain('Receipt from');
});

test('a patient who reads Welsh presses Cymraeg and declares an NHS exemption on the Welsh form, its errors in Welsh', async ({
  page,
}) => {
  const made = await chargedOrder(uniqueEmail('gwenllian'), 'england');
  await openInWelsh(page, made.orderId, made.business.name, true);
  await expect(page.getByText('Mae £9.90 i’w dalu am yr archeb hon: y tâl presgripsiwn GIG.')).toBeVisible();
  await page.getByRole('button', { name: 'Datgan esemptiad' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Datgan esemptiad' })).toBeVisible();

  await page.getByRole('button', { name: 'Datgan a pharhau' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Mae problem' });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Dewiswch yr esemptiad sy’n berthnasol');
  await expect(summary).toContainText('Llofnodwch yn y blwch');
  await expectAccessible(page, 'the Welsh exemption form with its errors');

  await page.getByLabel('U: Credyd Cynhwysol').check();
  await page.getByLabel('Enw llawn y sawl sy’n datgan').fill('Gwenllian Prys');
  await page.getByLabel('Ie, fi yw’r claf').check();
  await page.getByRole('button', { name: 'Llofnodi â’r enw a deipiwyd uchod' }).click();
  await page.getByRole('button', { name: 'Datgan a pharhau' }).click();

  await expect(page.getByText('Mae eich esemptiad wedi’i ddatgan. Diolch.')).toBeVisible();
  await expect(page.getByTestId('pin')).toHaveText(/^\d{4} \d{4}$/);
  await expect(page.getByText('Esemptiad wedi’i ddatgan: U (Credyd Cynhwysol)')).toBeVisible();
  await expectAccessible(page, 'a declared order in Welsh');
});

/** A Welsh pharmacy taking sign-ups online, sending its patients `language`, and its sign-up page, open (in Welsh). */
async function welshSignUpPage(page: Page, language: 'cy' | 'bilingual') {
  const business = await createBusiness();
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId: business.id,
    settings: {
      nation: 'wales',
      patientLanguage: language,
      onlineSignups: { enabled: true, url: `https://medlocker.test/signup/${business.id}` },
    },
  });
  await page.goto(`/signup/${business.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Cofrestru gyda ${business.name}` })).toBeVisible();
  return business;
}

test('a Welsh pharmacy’s sign-up page opens in Welsh, says what is missing in Welsh, emails its code Welsh first, and offers English', async ({
  page,
}) => {
  await welshSignUpPage(page, 'bilingual');
  await expect(page.locator('html')).toHaveAttribute('lang', 'cy-GB');
  await expect(page.getByRole('button', { name: 'Cymraeg' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Enw cyntaf')).toBeVisible();
  await expect(page.getByLabel('Cod post')).toBeVisible();

  await page.getByRole('button', { name: 'Cofrestru', exact: true }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Mae problem' });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Rhowch eich enw cyntaf');
  await expect(summary).toContainText('Rhowch eich dyddiad geni');
  await expect(summary).toContainText('Rhowch gyfeiriad e-bost neu rif ffôn symudol');
  await expectAccessible(page, 'the Welsh sign-up form with its errors');

  // The server's refusal of a postcode, said in Welsh.
  await page.getByLabel('Enw cyntaf').fill('Gruffudd');
  await page.getByLabel('Cyfenw').fill('Owain');
  await page.getByLabel('Diwrnod').fill('1');
  await page.getByLabel('Mis').fill('3');
  await page.getByLabel('Blwyddyn').fill('1990');
  const email = uniqueEmail('gruffudd');
  await page.getByLabel('Cyfeiriad e-bost (dewisol)').fill(email);
  await page.getByLabel('Cod post').fill('NOT A POSTCODE');
  await page.getByRole('button', { name: 'Cofrestru', exact: true }).click();
  await expect(summary).toContainText('Cod post yn y DU annilys');

  await page.getByLabel('Cod post').fill('CF10 1AA');
  await page.getByRole('button', { name: 'Cofrestru', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Gwirio mai chi sydd yno' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Y cod o’r e-bost i / })).toBeVisible();
  await expectAccessible(page, 'the Welsh sign-up codes screen');
  // The bilingual pharmacy's code email: one mail, Welsh first, one code.
  const mail = await mailTo(email, 20_000);
  expect(mail.subject).toBe('Eich cod cofrestru MedLocker / Your MedLocker sign-up code');
  expect(mail.text).toMatch(
    /^Eich cod cofrestru MedLocker yw (\d{6})\. Mae'n gweithio am 15 munud\.\n\nYour MedLocker sign-up code is \1\. It expires in 15 minutes\./,
  );

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check it is you' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
});

test('a visitor who presses English on a Welsh pharmacy’s sign-up page gets their code in English alone', async ({
  page,
}) => {
  const business = await welshSignUpPage(page, 'cy');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Sign up with ${business.name}` })).toBeVisible();

  await page.getByLabel('First name').fill('Gruffudd');
  await page.getByLabel('Last name').fill('Owain');
  await page.getByLabel('Day').fill('1');
  await page.getByLabel('Month').fill('3');
  await page.getByLabel('Year').fill('1990');
  const email = uniqueEmail('gruffudd');
  await page.getByLabel('Email address (optional)').fill(email);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check it is you' })).toBeVisible();

  // The choice made on the page beats the pharmacy's Welsh: one code, in English, and no Welsh.
  const mail = await mailTo(email, 20_000);
  expect(mail.subject).toBe('Your MedLocker sign-up code');
  expect(mail.text).toMatch(/^Your MedLocker sign-up code is \d{6}\. It expires in 15 minutes\./);
  expect(mail.text).not.toContain('Eich cod');
});
