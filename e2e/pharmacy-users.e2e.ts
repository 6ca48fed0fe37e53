import type { Page } from '@playwright/test';
import {
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  logIn,
  mailTo,
  test,
  uniqueEmail,
} from './harness/fixtures.ts';

// Several sign-ins and page loads each; the shared machine is slow.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/*
 * SPEC §1 "Pharmacy administrators manage their own business": a pharmacy Admin invites and removes the
 * users of their business from its Users tab; a pharmacy user without Admin reads the list only. And
 * the console's answers to a pharmacy user's refusals (docs/decisions/auth.md): Access Restricted where a
 * page is not theirs, never a sign-out.
 */

/** Signs a freshly invited pharmacy user in and names them (SPEC §1's complete-profile screen). */
async function signInAsNew(page: Page, user: { email: string; password: string }, name: [string, string]) {
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill(name[0], { timeout: 30_000 });
  await page.getByLabel('Surname').fill(name[1]);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/$/);
}

test('a pharmacy Admin invites a person to their business from its Users tab, and removes a user', async ({ page }) => {
  const business = await createBusiness();
  const admin = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  const member = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  const newcomer = uniqueEmail('colleague');
  await signInAsNew(page, admin, ['Ada', 'Admin']);

  await page.goto(`/businesses/${business.id}/users`);
  const list = page.getByRole('table', { name: 'Business users' });
  await expect(list.getByText(admin.email)).toBeVisible();
  await page.getByRole('link', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/users/add$`));
  await page.getByLabel('Email address').fill(newcomer);
  await page.getByText('Add as a Business administrator').click();
  await page.getByRole('button', { name: 'Add user' }).click();

  // Invited, not added (issue 35 §1): back at the list, the invitation pending, with Admin.
  await expect(page.getByText(`Invitation sent to ${newcomer}. They get access once they accept it.`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/users$`));
  const pending = page.getByRole('row', { name: new RegExp(newcomer.replace(/[.]/g, '\\.')) });
  await expect(pending.getByText('Business (Admin)')).toBeVisible();
  await expect(list.getByText(newcomer)).toHaveCount(0);
  // They are invited to choose a password (invitations.e2e.ts follows them in).
  expect((await mailTo(newcomer)).text).toContain('/auth/reset#token=');

  await list.getByRole('link', { name: member.email }).click();
  await expect(page.getByRole('button', { name: 'Edit identity provider' })).toHaveCount(0);
  await page
    .getByRole('row', { name: /Business/ })
    .getByRole('button', { name: /Remove role Business/ })
    .click();
  await page.getByRole('alertdialog', { name: 'Remove role?' }).getByRole('button', { name: 'Remove role' }).click();

  // Back at the list, without them.
  await expect(page.getByText(/Business role removed from/)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/users$`));
  await expect(list.getByText(admin.email)).toBeVisible();
  await expect(list.getByRole('row', { name: new RegExp(member.email.replace(/[.]/g, '\\.')) })).toHaveCount(0);
});

test('a pharmacy user without Admin reads their business users but cannot add or edit, and stays signed in', async ({
  page,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  const member = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await signInAsNew(page, member, ['Mo', 'Member']);

  // Already signed in: the login page goes straight on, as it does for support staff.
  await page.goto('/auth/login');
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`/businesses/${business.id}/users`);
  const list = page.getByRole('table', { name: 'Business users' });
  await expect(list.getByText(member.email)).toBeVisible();
  await expect(list.getByRole('link')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0);
  // Editing the business is not offered either.
  await expect(
    page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Machines' }),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Edit' })).toHaveCount(0);

  // By address: Access Restricted in place of the page, the console and the session unharmed.
  await page.goto(`/businesses/${business.id}/users/add`);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  // A page whose data the server refuses (payment settings need Admin): the same, without a sign-out.
  await page.goto(`/businesses/${business.id}/settings/payment`);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText('Logged in as Mo Member')).toBeVisible();
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Machines' }).click();
  await expect(page.getByRole('link', { name: machine.name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/machines$`));
  // A support-only page (Support Users): Access Restricted inside the console frame, still signed in.
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText('Logged in as Mo Member')).toBeVisible();
});
