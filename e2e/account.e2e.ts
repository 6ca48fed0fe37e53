import type { Browser, Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createUser,
  disableAsUnused,
  logIn,
  logInAsAdmin,
  signInAsNew,
  test,
} from './harness/fixtures.ts';

// Several browsers signed in at once, each page's first load slow on the shared machine.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/*
 * Issue 37 §2, the user's own account: change password while signed in (other sessions end), one's own
 * sessions ended from /account, support ending another user's sessions from /users/{id}, and accounts
 * disabled for not being used enabled again by support or by an Admin of the user's business.
 */

const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const disabledWords =
  'Your account has been disabled because it has not been used for a while. Please speak to your manager or MedLocker Support to enable it again.';

/** Another browser (its own cookies), with this user agent, signed in as the user. */
async function elsewhere(browser: Browser, user: { email: string; password: string }, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  return { context, page };
}

/**
 * The page's session is gone: the console page, live, is hung up on and goes to the sign-in page by
 * itself, with the timeout words.
 */
async function expectSignedOut(page: Page) {
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByText('Your session has timed out. Please log in again')).toBeVisible();
}

async function openAccount(page: Page) {
  await page.getByRole('region', { name: 'Your account' }).getByRole('link', { name: 'Your account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
}

test('a support user changes their password: their other browser is signed out; they end another session', async ({
  page,
  browser,
}) => {
  const sam = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await signInAsNew(page, sam, { first: 'Sam', last: 'Support' });
  const firefox = await elsewhere(browser, sam, FIREFOX_MAC);
  const iphone = await elsewhere(browser, sam, SAFARI_IPHONE);
  try {
    await openAccount(page);
    const sessions = page.getByRole('grid', { name: 'Sessions' });
    await expect(sessions.getByRole('row')).toHaveCount(4);
    await expect(sessions.getByRole('row', { name: /This session/ })).toContainText('Chrome on Windows');
    await expect(sessions.getByRole('row', { name: /This session/ }).getByRole('button', { name: /End/ })).toHaveCount(
      0,
    );

    // End the iPhone's session from the list.
    await sessions
      .getByRole('row', { name: /Safari on iPhone/ })
      .getByRole('button', { name: /^End session/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'End session' }).click();
    await expect(page.getByText('Session ended.')).toBeVisible();
    await expect(sessions.getByRole('row', { name: /Safari on iPhone/ })).toHaveCount(0);
    await expectSignedOut(iphone.page);

    // A wrong current password is refused on its field; the right one changes it and ends the Firefox session.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill('a new passphrase for sam');
    await page.getByLabel('Confirm new password').fill('a new passphrase for sam');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your current password is not correct')).toBeVisible();
    await page.getByLabel('Current password').fill(sam.password);
    await page.getByLabel('New password', { exact: true }).fill('a new passphrase for sam');
    await page.getByLabel('Confirm new password').fill('a new passphrase for sam');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByText('Your password has been changed. Your other sessions (1) have been signed out.'),
    ).toBeVisible();
    await expect(sessions.getByRole('row')).toHaveCount(2);
    await expectSignedOut(firefox.page);

    // This browser stays signed in; the new password signs in elsewhere, the old one no longer does.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await logIn(firefox.page, sam.email, sam.password);
    await expect(firefox.page.getByText('Invalid username or password')).toBeVisible();
    await firefox.page.goto('/auth/login');
    await logIn(firefox.page, sam.email, 'a new passphrase for sam');
    await expect(firefox.page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  } finally {
    await firefox.context.close();
    await iphone.context.close();
  }
});

test('support ends another user’s session from their page', async ({ page, browser }) => {
  const business = await createBusiness();
  const pat = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  const theirs = await browser.newContext({ userAgent: FIREFOX_MAC });
  try {
    const patPage = await theirs.newPage();
    await signInAsNew(patPage, pat, { first: 'Pat', last: 'Pharmacist' });
    await logInAsAdmin(page, `/users/${pat.userId}`);
    const sessions = page.getByRole('grid', { name: 'Sessions' });
    const row = sessions.getByRole('row', { name: /Firefox on macOS/ });
    await expect(row).toBeVisible();
    await expect(sessions.getByText('This session')).toHaveCount(0);
    await row.getByRole('button', { name: /^End session/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'End session' }).click();
    await expect(page.getByText('Session ended.')).toBeVisible();
    await expect(sessions.getByText('No sessions: the user is not signed in')).toBeVisible();
    await expectSignedOut(patPage);
  } finally {
    await theirs.close();
  }
});

test('a pharmacy user sees their sessions and ends all the others', async ({ page, browser }) => {
  const business = await createBusiness();
  const pat = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await signInAsNew(page, pat, { first: 'Pat', last: 'Pharmacist' });
  const firefox = await elsewhere(browser, pat, FIREFOX_MAC);
  const iphone = await elsewhere(browser, pat, SAFARI_IPHONE);
  try {
    await openAccount(page);
    const sessions = page.getByRole('grid', { name: 'Sessions' });
    await expect(sessions.getByRole('row', { name: /Firefox on macOS/ })).toBeVisible();
    await expect(sessions.getByRole('row', { name: /Safari on iPhone/ })).toBeVisible();
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'End other sessions' }).click();
    await expect(page.getByText('Your other sessions have been ended.')).toBeVisible();
    await expect(sessions.getByRole('row')).toHaveCount(2);
    await expectSignedOut(firefox.page);
    await expectSignedOut(iphone.page);
    await page.reload();
    await expect(sessions.getByRole('row', { name: /This session/ })).toBeVisible();
  } finally {
    await firefox.context.close();
    await iphone.context.close();
  }
});

test('support enables an account disabled for not being used', async ({ page, browser }) => {
  const business = await createBusiness();
  const pat = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await disableAsUnused(pat.userId);
  const theirs = await browser.newContext();
  try {
    const patPage = await theirs.newPage();
    await patPage.goto('/auth/login');
    await logIn(patPage, pat.email, pat.password);
    await expect(patPage.getByText(disabledWords)).toBeVisible();

    await logInAsAdmin(page, `/users/${pat.userId}`);
    const banner = page.getByRole('alert').filter({ hasText: 'Account disabled' });
    await expect(banner).toContainText('because it had not been used for too long');
    await banner.getByRole('button', { name: 'Enable account' }).click();
    await expect(page.getByText('Account enabled. The user can sign in again.')).toBeVisible();
    await expect(page.getByText('Account disabled')).toHaveCount(0);

    await patPage.goto('/auth/login');
    await logIn(patPage, pat.email, pat.password);
    await expect(patPage.getByLabel('First name')).toBeVisible();
  } finally {
    await theirs.close();
  }
});

test('a pharmacy Admin enables a disabled user of their business from its Users tab', async ({ page }) => {
  const business = await createBusiness();
  const boss = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  const member = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  await disableAsUnused(member.userId);
  await signInAsNew(page, boss, { first: 'Ada', last: 'Admin' }, `/businesses/${business.id}/users`);
  await page.getByRole('table', { name: 'Business users' }).getByRole('link', { name: member.email }).click();
  // A pharmacy Admin sees whether the account can sign in, never the person's sessions.
  await expect(page.getByRole('grid', { name: 'Sessions' })).toHaveCount(0);
  const banner = page.getByRole('alert').filter({ hasText: 'Account disabled' });
  await banner.getByRole('button', { name: 'Enable account' }).click();
  await expect(page.getByText('Account enabled. The user can sign in again.')).toBeVisible();
  const status = await asAdmin<{ disabledAt: number | null }>('auth/getAccountStatus', { userId: member.userId });
  expect(status.disabledAt).toBeNull();
});

test('support sets the days after which an unused account is disabled', async ({ page }) => {
  await logInAsAdmin(page, '/globalSettings');
  await expect(page.getByText('Disable accounts not used for')).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  const charge = page.getByLabel('NHS prescription charge (£)');
  if ((await charge.inputValue()) === '') await charge.fill('9.90');
  const days = page.getByLabel('Disable accounts not used for (days)');
  await days.fill('0');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter a positive whole number')).toBeVisible();
  await days.fill('120');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/globalSettings$/);
  await expect(page.getByText('120 days')).toBeVisible();
  // Back to the default, so other specs' accounts are judged by it.
  const saved = await asAdmin<{ settings: { nhsPrescriptionCharge: number } }>('globalSettings/getGlobalSettings');
  await asAdmin('globalSettings/createOrUpdateGlobalSettings', {
    nhsPrescriptionCharge: saved.settings.nhsPrescriptionCharge,
    inactiveAccountDays: 90,
  });
});
