import type { Browser, Page } from '@playwright/test';
import {
  expect as baseExpect,
  createBusiness,
  createUser,
  linkIn,
  logIn,
  mailTo,
  signInAsNew,
  test,
  uniqueEmail,
} from './harness/fixtures.ts';

// Two people sign in per test; the shared machine is slow.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/*
 * Issue 35 §1 (docs/decisions/auth.md, Role invitations): a pharmacy Admin's Add user invites anyone not
 * already one of theirs, with the same words for a new email as for another business's user; the person
 * accepts or declines after signing in; the Admin sees the invitation pending and can cancel it.
 */

/** As a business's Admin, on its Users tab: invites an email and expects the same notice whoever it is. */
async function invite(page: Page, businessId: string, email: string) {
  await page.goto(`/businesses/${businessId}/users`);
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByText(`Invitation sent to ${email}. They get access once they accept it.`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/users$`));
  await expect(page.getByLabel('Pending invitations').getByText(email)).toBeVisible();
}

async function secondPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('someone new, invited by a pharmacy Admin, chooses a password, accepts, and enters the business', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  const admin = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, admin, { first: 'Ada', last: 'Admin' });
  const newcomer = uniqueEmail('invitee');
  await invite(page, business.id, newcomer);

  // The invitee: the emailed link to choose a password, then sign-in with no role yet: the invitation.
  const invitee = await secondPage(browser);
  await invitee.goto(linkIn(await mailTo(newcomer)));
  const password = 'a-new-invitee-password-1';
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByLabel('Confirm password').fill(password);
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee).toHaveURL(/\/auth\/login$/);
  await logIn(invitee, newcomer, password);
  await expect(invitee.getByRole('heading', { name: 'You have been invited' })).toBeVisible();
  await expect(invitee.getByText(`Ada Admin invited you to the business ${business.name}`)).toBeVisible();
  await invitee.getByRole('button', { name: `Accept the invitation to the business ${business.name}` }).click();

  // In: their name first (SPEC §1), then the business's dashboard.
  await invitee.getByLabel('First name').fill('Ivy');
  await invitee.getByLabel('Surname').fill('Invitee');
  await invitee.getByRole('button', { name: 'Save' }).click();
  await expect(invitee.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(invitee.getByText(`${business.name} at a glance`)).toBeVisible();
  await invitee.context().close();

  // The Admin sees them among the users, the invitation gone.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Business users' }).getByText(newcomer)).toBeVisible();
  await expect(page.getByLabel('Pending invitations')).toHaveCount(0);
});

test("another business's user is invited alike, sees it on their dashboard and declines; an Admin cancels one", async ({
  page,
  browser,
}) => {
  const one = await createBusiness();
  const two = await createBusiness();
  const admin = await createUser({ role: { name: 'Business', resource: one.id, accessLevels: ['Admin'] } });
  const theirs = await createUser({ role: { name: 'Business', resource: two.id, accessLevels: [] } });
  await signInAsNew(page, admin, { first: 'Ada', last: 'Admin' });
  await invite(page, one.id, theirs.email);
  // Nothing of the person shows: no link to their page, only the email typed.
  await expect(page.getByRole('table', { name: 'Business users' }).getByText(theirs.email)).toHaveCount(0);

  const other = await secondPage(browser);
  await signInAsNew(other, theirs, { first: 'Tess', last: 'Two' });
  await other.getByRole('link', { name: 'Review invitations' }).click();
  await expect(other).toHaveURL(/\/invitations$/);
  await other.getByRole('button', { name: `Decline the invitation to the business ${one.name}` }).click();
  await expect(other.getByText(`You declined the invitation to the business ${one.name}.`)).toBeVisible();
  await other.context().close();

  // Back on the Users tab the invitation is gone; another one is cancelled by the Admin.
  await page.reload();
  await expect(page.getByLabel('Pending invitations')).toHaveCount(0);
  const stranger = uniqueEmail('stranger');
  await invite(page, one.id, stranger);
  await page.getByRole('button', { name: `Cancel the invitation of ${stranger}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Cancel invitation?' })
    .getByRole('button', { name: 'Cancel invitation' })
    .click();
  await expect(page.getByText(`The invitation of ${stranger} was cancelled.`)).toBeVisible();
  await expect(page.getByLabel('Pending invitations').getByText(stranger)).toHaveCount(0);
});
