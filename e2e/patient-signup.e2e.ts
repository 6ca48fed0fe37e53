import type { Browser, Page } from '@playwright/test';
import { expectAccessible as accessible } from './harness/axe.ts';
import {
  admin,
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  logIn,
  mailTo,
  smsTo,
  test,
  uniqueEmail,
} from './harness/fixtures.ts';

/**
 * "Sign-up page for new patients": a pharmacy turns online sign-ups on in its settings; a
 * new patient signs up on the page it gives (/signup/{businessId}) on a phone (390×844), enters the
 * codes that came by email and text, and is thanked; the pharmacy, and support, then find the sign-up
 * validated in the business's sign-ups list. axe-core checks each screen the patient sees.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A page in a browser of its own, as a phone; its errors fail the test as the fixture's page's do. */
async function phonePage(browser: Browser, errors: string[]) {
  const context = await browser.newContext(phone);
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      errors.push(message.text());
    }
  });
  return { page, close: () => context.close() };
}

/** The 6-digit code in a message. */
const codeIn = (text: string) => {
  const code = /code is (\d{6})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
};

async function openSignUps(page: Page, businessId: string) {
  await page.goto(`/businesses/${businessId}/patients/signUps`);
  return page.getByRole('table', { name: 'Sign-ups' });
}

test('a pharmacy turns online sign-ups on, a patient signs up on a phone with the codes sent, and the pharmacy sees them validated', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  // Texts go through the harness's local The SMS Works, so the code can be read as the patient would.
  await asAdmin('businessSettings/updateBusinessControlledSettings', {
    businessId: business.id,
    settings: { smsGateway: 'thesmsworks' },
  });
  const pharmacist = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  const email = uniqueEmail('new.patient');

  // The pharmacy: before it is on, the page says sign-ups are not taken online.
  const errors: string[] = [];
  const patient = await phonePage(browser, errors);
  try {
    await patient.page.goto(`/signup/${business.id}`);
    await expect(patient.page.getByText('This pharmacy does not take sign-ups online.')).toBeVisible();

    await page.goto('/auth/login');
    await logIn(page, pharmacist.email, pharmacist.password);
    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Surname').fill('Pharmacist');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.goto(`/businesses/${business.id}/settings/features`);
    await page.getByText('Patients can sign up online', { exact: true }).click();
    await expect(page.getByRole('switch', { name: 'Patients can sign up online' })).toBeChecked();
    // Turning it on offers our own page's address; that is what the pharmacy gives its patients.
    const url = page.getByRole('textbox', { name: 'Sign-up page URL' });
    const ours = new URL(`/signup/${business.id}`, page.url()).toString();
    await expect(url).toHaveValue(ours);
    await expect(url).toHaveAccessibleDescription(new RegExp(`Our sign-up page for this pharmacy is ${ours}`));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Feature settings saved.')).toBeVisible();

    // The patient, on a phone.
    const p = patient.page;
    await p.goto(ours);
    await expect(p.getByRole('heading', { level: 1, name: `Sign up with ${business.name}` })).toBeVisible();
    await accessible(p, 'the sign-up form');
    // Nothing to check it is them: the page says so before anything is sent.
    await p.getByLabel('First name').fill('Nia');
    await p.getByLabel('Last name').fill('Newcombe');
    await p.getByRole('button', { name: 'Sign up' }).click();
    await expect(p.getByRole('alert')).toContainText('Enter your date of birth');
    await expect(p.getByRole('textbox', { name: 'Email address (optional)' })).toHaveAccessibleDescription(
      /Enter an email address or a mobile number/,
    );
    await accessible(p, 'the form with its errors');
    await p.getByLabel('Day').fill('4');
    await p.getByLabel('Month').fill('11');
    await p.getByLabel('Year').fill('1992');
    await p.getByRole('textbox', { name: 'Email address (optional)' }).fill(email);
    // The server's words for a number that is not a UK mobile, beside the field.
    await p.getByRole('textbox', { name: 'UK mobile number (optional)' }).fill('0113 496 0000');
    await p.getByLabel('Address line 1').fill('2 Mill Lane');
    await p.getByLabel('Town or city').fill('Leeds');
    await p.getByLabel('Postcode').fill('ls2 7aa');
    await p.getByRole('button', { name: 'Sign up' }).click();
    await expect(p.getByRole('textbox', { name: 'UK mobile number (optional)' })).toHaveAccessibleDescription(
      /Invalid UK mobile number/,
    );
    await p.getByRole('textbox', { name: 'UK mobile number (optional)' }).fill(`07700 9${digits}`);
    await p.getByRole('button', { name: 'Sign up' }).click();

    await expect(p.getByRole('heading', { level: 1, name: 'Check it is you' })).toBeVisible();
    const emailCode = p.getByRole('textbox', { name: /^Code from the email to / });
    const mobileCode = p.getByRole('textbox', { name: /^Code from the text to 07••• •••/ });
    await expect(mobileCode).toBeVisible();
    await accessible(p, 'the code screen');
    const mailed = codeIn((await mailTo(email)).text);
    const texted = codeIn((await smsTo(`4477009${digits}`)).content);

    // A wrong code is answered beside its field with the tries left; the right one confirms that contact.
    const wrong = String((Number(texted) + 1) % 1_000_000).padStart(6, '0');
    await emailCode.fill(mailed);
    await mobileCode.fill(wrong);
    await p.getByRole('button', { name: 'Continue' }).click();
    await expect(mobileCode).toHaveAccessibleDescription(/The code is not right\. You can try 4 more times\./);
    await expect(p.getByText(/^Email address .+ confirmed\.$/)).toBeVisible();
    await expect(emailCode).toHaveCount(0);
    await accessible(p, 'a wrong code');
    // New codes are not sent within a minute of the last ones: the page says how long to wait.
    await p.getByRole('button', { name: 'Send new codes' }).click();
    await expect(p.getByRole('alert')).toContainText(/Please wait \d+ seconds before asking for a new code\./);
    // A reload comes back to the same screen (the sign-up is behind this browser's cookie).
    await p.reload();
    await expect(mobileCode).toBeVisible();
    await mobileCode.fill(texted);
    await p.getByRole('button', { name: 'Continue' }).click();

    await expect(p.getByRole('heading', { level: 1, name: 'Thank you — the pharmacy will be in touch' })).toBeVisible();
    await expect(p.getByText(`${business.name} has your details.`)).toBeVisible();
    await accessible(p, 'the thanks');
  } finally {
    await patient.close();
  }
  expect(errors, 'errors in the patient page').toEqual([]);

  // The pharmacy finds the sign-up waiting in its list, validated.
  const list = await openSignUps(page, business.id);
  const row = list.getByRole('row', { name: /Nia Newcombe/ });
  await expect(row).toContainText('validated');
  await expect(row).toContainText('04-11-1992');
  await expect(row).toContainText(`+4477009${digits}`);

  // Support sees it too.
  const support = await browser.newContext();
  try {
    const supportPage = await support.newPage();
    await supportPage.goto('/auth/login');
    await logIn(supportPage, admin.email, admin.password);
    await expect(supportPage.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const supportList = await openSignUps(supportPage, business.id);
    await expect(supportList.getByRole('row', { name: /Nia Newcombe/ })).toContainText('validated');
  } finally {
    await support.close();
  }
});
