import {
  admin,
  call,
  createUser,
  expect,
  linkIn,
  liveSubscribed,
  logIn,
  mailTo,
  signedInApi,
  test,
  uniqueEmail,
} from './harness/fixtures.ts';

const invalidLink = 'You have clicked on an expired or invalid link. Please try again.';

test('a user with neither the support scope nor a Business or Group role sees Access Restricted and can only log out', async ({
  page,
}) => {
  // A Developer role alone reaches no business (pharmacy users: pharmacy-access.e2e.ts).
  const user = await createUser({ role: { name: 'Developer', accessLevels: [] } });
  await page.goto('/users');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(
    page.getByText(
      'You do not have access to this area. If you think you should, please speak to your manager or MedLocker Support.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('a new support user sets a password through the emailed link, then completes their profile', async ({ page }) => {
  const email = uniqueEmail('invited');
  const api = await signedInApi(admin.email, admin.password);
  await call(api, 'auth/addRoles', {
    addIdpByDefault: false,
    email,
    frontEnd: 'support',
    roles: [{ name: 'Support', accessLevels: [] }],
  });
  await api.dispose();

  const link = linkIn(await mailTo(email));
  expect(link).toContain('/auth/reset#token=');
  await page.goto(link);
  // They never had a password: the page asks them to choose one, not to set a new one.
  await expect(page).toHaveTitle('Choose your password | MedLocker');
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Please enter at least 12 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  const password = 'a-brand-new-password-2026';
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText('Your password has been set')).toBeVisible();

  await logIn(page, email, password);
  // Created without names: the profile is completed first, and nothing else is shown.
  await expect(page.getByRole('heading', { name: 'Complete your profile' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Surname').fill('Newcomer');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Logged in as Robin Newcomer')).toBeVisible();

  // The link works once.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  // The sign-in page is a page of its own: let its load finish before the next navigation, or it aborts it.
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill('yet-another-password-1');
  await page.getByLabel('Confirm password').fill('yet-another-password-1');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText(invalidLink)).toBeVisible();
});

test('a reset page without a token says the link is invalid', async ({ page }) => {
  await page.goto('/auth/reset');
  await expect(page.getByText(invalidLink)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Send a new link' })).toHaveAttribute('href', '/auth/reset/begin');
});

test('someone registers, sets a password from the email, and without the support scope meets Access Restricted', async ({
  page,
}) => {
  const email = uniqueEmail('registered');
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/register$/);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('First name').fill('Reggie');
  await page.getByLabel('Surname').fill('Strar');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const mail = await mailTo(email);
  expect(mail.subject).toBe('Finish setting up your MedLocker account');
  await page.goto(linkIn(mail));
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  const password = 'registered-and-ready-1';
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await logIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
});

test('a console left open when its Support role is removed shows Access Restricted without a reload', async ({
  page,
}) => {
  const user = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await page.goto('/');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Remy');
  await page.getByLabel('Surname').fill('Leaving');
  // The dashboard is live: its socket opens and subscribes to the fleet.
  const subscribed = liveSubscribed(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await subscribed;

  const api = await signedInApi(admin.email, admin.password);
  await call(api, 'auth/removeRole', { userId: user.userId, roleName: 'Support', roleResource: null });
  await api.dispose();
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
});
