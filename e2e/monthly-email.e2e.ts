import { expectAccessible as accessible } from './harness/axe.ts';
import {
  asAdmin,
  expect as baseExpect,
  createUser,
  logInAsAdmin,
  mailTo,
  signInAsNew,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

/*
 * The monthly report email: on a business's details, staff who administer it send a month's
 * report to the business's notification emails; the harness's SMTP catcher receives it with its CSV.
 * As support and as a pharmacy admin of the business (a pharmacy user without Admin is not offered it);
 * axe-core checks the page and the dialog.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

async function businessWithRecipients() {
  const owner = uniqueEmail('owner');
  const { business } = await asAdmin<{ business: { id: string; name: string } }>('businesses/createBusiness', {
    name: uniqueName('Report Pharmacy'),
    email: uniqueEmail('pharmacy'),
    address: { line1: '1 High Street', postTown: 'Leeds', postcode: 'LS1 1AA' },
    notificationEmails: [owner],
  });
  return { ...business, owner };
}

async function sendReport(
  page: import('@playwright/test').Page,
  business: { id: string; name: string; owner: string },
) {
  await page.goto(`/businesses/${business.id}`);
  await expect(page.getByRole('heading', { name: 'Monthly report' })).toBeVisible();
  await accessible(page, 'the business details with its monthly report');
  await page.getByRole('button', { name: 'Email monthly report' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Email monthly report?' });
  await expect(dialog).toContainText(`goes to ${business.owner}`);
  await accessible(page, 'the monthly report dialog');
  // The month before last: the list holds this month so far and the 12 before it.
  await dialog.getByRole('button', { name: /Month/ }).click();
  const options = page.getByRole('option');
  await expect(options).toHaveCount(13);
  const chosen = (await options.nth(2).textContent()) ?? '';
  await options.nth(2).click();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(`The ${chosen} report was sent to ${business.owner}.`)).toBeVisible();
  const mail = await mailTo(business.owner);
  expect(mail.subject).toBe(`MedLocker monthly report: ${business.name}, ${chosen}`);
  expect(mail.text).toContain(`monthly report for ${chosen}`);
  const [csv] = mail.attachments ?? [];
  expect(csv?.filename).toMatch(/^monthly-report-report-pharmacy-.*-\d{4}-\d{2}\.csv$/);
  const lines = (csv?.content ?? '').split('\r\n').filter((l) => l !== '');
  expect(lines).toHaveLength(14);
  expect(lines[0]).toMatch(/^"Month","Orders added","Orders loaded",/);
}

test('support emails a business its monthly report with the CSV', async ({ page }) => {
  const business = await businessWithRecipients();
  await logInAsAdmin(page);
  await sendReport(page, business);
});

test("a pharmacy admin emails their business's monthly report; a user without Admin is not offered it", async ({
  page,
  browser,
}) => {
  const business = await businessWithRecipients();
  const admin = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, admin, { first: 'Ada', last: 'Admin' });
  await sendReport(page, business);

  const member = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInAsNew(other, member, { first: 'Mo', last: 'Member' });
  await other.goto(`/businesses/${business.id}`);
  await expect(other.getByRole('heading', { name: 'Monthly report' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Email monthly report' })).toHaveCount(0);
  await context.close();
});
