// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are what these templates are made of.
import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logInAsAdmin,
  mailTo,
  pairedLocker,
  type SimulatedLocker,
  signInAsNew,
  smsTo,
  stopLocker,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * Welsh (Cymraeg) end to end: a Welsh business's patient gets their text in Welsh and their page in
 * Welsh, switches to English on the page and their next text is English; a bilingual business's
 * patient gets one email, Welsh first; support and pharmacy staff set the business's language and
 * word its Welsh SMS templates, the preview counting the parts Welsh letters cost.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 150_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

const DATE_OF_BIRTH = { day: '14', month: '6', year: '1979', iso: '1979-06-14' };

/**
 * A business in Wales whose patients' language is `language`, on The SMS Works, with a paired
 * locker and one patient (with `email`, their messages go by email).
 */
async function welshEstate(language: 'cy' | 'bilingual', email?: string) {
  const business = await createBusiness();
  const businessId = business.id;
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId,
    settings: { smsGateway: 'thesmsworks' },
  });
  await asAdmin('businessSettings/updateBusinessFeatureSettings', {
    businessId,
    // With an email address, the patient's messages go there (the business sends email when it can).
    settings: { nation: 'wales', patientLanguage: language, sendOnlyEmailIfPossible: Boolean(email) },
  });
  const { machine } = await asAdmin<{ machine: { id: string } }>('machines/createMachine', {
    businessId,
    name: uniqueName('Ffenestr'),
    numberOfSlots: 40,
  });
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const { patient } = await asAdmin<{ patient: { id: string } }>('patients/create', {
    businessId,
    patient: {
      displayId: uniqueName('P').replace(' ', '-'),
      name: { given: 'Eleri', family: 'Huws' },
      mobileNumber: `07700 9${digits}`,
      ...(email ? { email } : {}),
      dateOfBirth: DATE_OF_BIRTH.iso,
    },
  });
  locker = await pairedLocker(machine.id);
  const paired = locker;
  /** An order for the patient, loaded into the locker (its message goes then). */
  const loadedOrder = async (slot: string) => {
    const barcode = uniqueName('RX').replace(' ', '-').toUpperCase();
    const { order } = await asAdmin<{ order: { id: string } }>('orders/create', {
      businessId,
      patientId: patient.id,
      machineId: machine.id,
      barcode,
    });
    await paired.control({ do: 'loadBag', barcode, location: slot });
    return order.id;
  };
  return { business, loadedOrder, destination: `4477009${digits}` };
}

async function confirmDateOfBirth(page: Page) {
  await page.getByLabel('Day').fill(DATE_OF_BIRTH.day);
  await page.getByLabel('Month').fill(DATE_OF_BIRTH.month);
  await page.getByLabel('Year').fill(DATE_OF_BIRTH.year);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('a patient', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('of a Welsh business gets a Welsh text and page, switches to English, and the next text is English', async ({
    page,
  }) => {
    const made = await welshEstate('cy');
    const orderId = await made.loadedOrder('C3');
    const text = await smsTo(made.destination);
    expect(text.content).toMatch(/^Mae eich archeb gan .+ yn barod yn .+\. PIN: [\d ]+\. Casglwch hi erbyn /);
    expect(text.content).toMatch(
      /(Ionawr|Chwefror|Mawrth|Ebrill|Mai|Mehefin|Gorffennaf|Awst|Medi|Hydref|Tachwedd|Rhagfyr) \d{4} am \d\d:\d\d\.$/,
    );

    await page.goto(`/p/${orderId}`);
    await confirmDateOfBirth(page);
    await expect(page.getByRole('heading', { level: 1, name: `Eich archeb gan ${made.business.name}` })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'cy-GB');
    await expect(page.getByText('Yn barod i’w chasglu')).toBeVisible();
    await expect(page.getByText('Rhowch y PIN hwn yn y locer i gasglu eich archeb.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cymraeg' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Your order from ${made.business.name}` })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
    await expect(page.getByText('Ready to collect')).toBeVisible();

    // The choice is the patient's now: it survives a reload, and their next text is in English.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Your order from ${made.business.name}` })).toBeVisible();
    await made.loadedOrder('C4');
    const next = await smsTo(made.destination, 20_000, 2);
    expect(next.content).toMatch(/^Your order from .+ is ready at .+\. PIN: [\d ]+\. Please collect by /);
    expect(next.content).not.toContain('Mae eich archeb');
  });

  test('of a bilingual business gets one email, Welsh first then English', async () => {
    const email = uniqueEmail('eleri');
    const made = await welshEstate('bilingual', email);
    await made.loadedOrder('D1');
    const mail = await mailTo(email, 20_000);
    expect(mail.subject).toBe(`Eich archeb gan ${made.business.name} / Your order from ${made.business.name}`);
    const welsh = mail.text.indexOf('Mae eich archeb gan');
    const english = mail.text.indexOf('Your order from');
    expect(welsh).toBeGreaterThanOrEqual(0);
    expect(english).toBeGreaterThan(welsh);
  });
});

/** The business's settings: patients' language to bilingual, then a Welsh order-ready template with its preview. */
async function setWelshSettings(page: Page, businessId: string, wording: string) {
  await page.goto(`/businesses/${businessId}/settings/features`);
  await page.getByRole('button', { name: "Patients' language" }).click();
  await page.getByRole('option', { name: 'Both, Welsh first (bilingual)' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Feature settings saved.')).toBeVisible();

  await page.goto(`/businesses/${businessId}/settings/sms`);
  await page.getByRole('button', { name: 'Language of the templates' }).click();
  await page.getByRole('option', { name: 'Welsh (Cymraeg)' }).click();
  const ready = page.getByRole('textbox', { name: 'Order ready' });
  await expect(ready).toHaveValue(/^Mae eich archeb gan/);
  await ready.fill(wording);
  // Alone it fits one Unicode part; bilingual, with the English after it, it takes more, and says why.
  await expect(page.getByRole('figure', { name: 'Order ready preview' })).toContainText('/ 2 pages, sent as Unicode)');
  await expect(
    page.getByRole('figure', { name: 'Order ready: As a bilingual message (Welsh first) preview' }),
  ).toContainText(/\/ [3-9] pages, sent as Unicode\)/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SMS templates saved.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Language of the templates' }).click();
  await page.getByRole('option', { name: 'Welsh (Cymraeg)' }).click();
  await expect(page.getByRole('textbox', { name: 'Order ready' })).toHaveValue(wording);
}

test('support sets a business bilingual and words its Welsh order-ready text, the preview counting its parts', async ({
  page,
}) => {
  await logInAsAdmin(page);
  const business = await createBusiness();
  await setWelshSettings(page, business.id, 'Mae’ch archeb yn barod. PIN ${pin}. Dewch â hi erbyn ${expires}.');
  const { templates } = await asAdmin<{ templates: { orderReady: string } }>(
    'businessSettings/getBusinessSmsTemplates',
    { businessId: business.id, language: 'en' },
  );
  expect(templates.orderReady).toMatch(/^Your order from/);
});

test('a pharmacy admin does the same for their own business', async ({ page }) => {
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user);
  await setWelshSettings(page, business.id, 'Mae’ch archeb yn barod yn ${machineName}. PIN ${pin}. Erbyn ${expires}.');
});
