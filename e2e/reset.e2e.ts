import { readFile } from 'node:fs/promises';
import { createUser, earlyUserFile, expect, linkIn, logIn, mailTo, test } from './harness/fixtures.ts';

/** The server sends at most one password link a minute to an address (the invitation counts). */
const linkThrottleMs = 61_000;

test('a forgotten password is reset through the emailed link', async ({ page }, testInfo) => {
  test.setTimeout(linkThrottleMs + 60_000);
  // The user harness/early-users.setup.ts invited at the start of the run, whose minute has normally
  // passed; a retry (the first try may have used its link) invites a new one.
  const user: { email: string; password: string; createdAt: number } =
    testInfo.retry === 0
      ? JSON.parse(await readFile(earlyUserFile('reset'), 'utf8'))
      : { createdAt: Date.now(), ...(await createUser({ role: { name: 'Support', accessLevels: [] } })) };
  // What is left of its minute (none when the run reached this spec a minute after it began).
  await page.waitForTimeout(Math.max(0, user.createdAt + linkThrottleMs - Date.now()));

  await page.goto('/auth/login');
  await page.getByLabel('Email address').fill(user.email);
  await page.getByRole('link', { name: 'I forgot my password' }).click();
  await expect(page).toHaveURL(/\/auth\/reset\/begin$/);
  await expect(page.getByLabel('Email address')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();

  const mail = await mailTo(user.email);
  expect(mail.subject).toBe('Reset your MedLocker password');
  await page.goto(linkIn(mail));
  const newPassword = 'forgot-and-found-again-1';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // The old password no longer works; the new one does.
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Complete your profile' })).toBeVisible();
});
