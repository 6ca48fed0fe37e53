import type { Page } from '@playwright/test';
import {
  asAdmin,
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  demoBusiness,
  liveSubscribed,
  logIn,
  logInAsAdmin,
  pairedLocker,
  type SimulatedLocker,
  stopLocker,
  test,
} from './harness/fixtures.ts';

/**
 * The bell and notifications page, for support staff and for a pharmacy user of the business:
 * a simulated locker raises an alarm, the bell's count goes up live, the page lists it, Dismiss brings
 * the count down. And the short links: `/u/{code}` redirects, an unknown code is a plain 404 page.
 */

// Lockers boot, pair and report on their own clock, on a shared, loaded machine: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 180_000 });

let lockers: SimulatedLocker[] = [];

test.afterEach(async () => {
  for (const locker of lockers) await stopLocker(locker, test.info());
  lockers = [];
});

/** A machine of the business paired with a simulated locker, as staff pair a real one. */
async function machineWithLocker(businessId: string) {
  const machine = await createMachine(businessId);
  const locker = await pairedLocker(machine.id);
  lockers.push(locker);
  return { machine, locker };
}

/** Logs a fresh user in and completes the profile the console asks for. */
async function logInFresh(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await logIn(page, email, password);
  await page.getByLabel('First name').fill('Nora', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Notified');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
}

/** The number in the bell's accessible name ("Notifications, 3 unread"). */
async function unread(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  const n = /, (\d+) unread$/.exec(label)?.[1];
  if (n === undefined) throw new Error(`the bell says "${label}"`);
  return Number(n);
}

const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

test('support staff see an alarm in the bell live, find it on the notifications page and dismiss it', async ({
  page,
}) => {
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await logInFresh(page, user.email, user.password);

  // Start from an empty bell: Dismiss all, behind its confirmation (other tests' alarms are estate-wide).
  const subscribed = liveSubscribed(page);
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss all' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Dismiss all notifications?' });
  await confirm.getByRole('button', { name: 'Dismiss all' }).click();
  await expect(confirm).toBeHidden();
  await subscribed;
  const before = await unread(page);

  const { machine, locker } = await machineWithLocker(business.id);
  await locker.control({ do: 'alarm', code: 'EM_0016' });
  // Live: no reload, the bell and the list follow the push.
  await expect.poll(() => unread(page)).toBeGreaterThan(before);
  const row = page.getByRole('row').filter({ hasText: machine.name });
  await expect(row).toContainText(business.name);
  await expect(row).toContainText('EM_0016');
  await expect(row).toContainText('has been triggered');

  const count = await unread(page);
  await row.getByRole('button', { name: 'Dismiss' }).click();
  await expect(row).toContainText('Dismissed');
  await expect.poll(() => unread(page)).toBe(count - 1);
});

test('a pharmacy user’s bell counts their business’s alarm, not another business’s, and Dismiss clears it', async ({
  page,
}) => {
  const own = await createBusiness();
  const other = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: own.id, accessLevels: [] } });
  const theirs = await machineWithLocker(other.id);
  const mine = await machineWithLocker(own.id);
  const subscribed = liveSubscribed(page);
  await logInFresh(page, user.email, user.password);
  await subscribed;
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 0 unread');

  await theirs.locker.control({ do: 'alarm', code: 'EM_0016' });
  await mine.locker.control({ do: 'alarm', code: 'EM_0016' });
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await expect(bell(page).getByTestId('notification-count')).toHaveText('1');

  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  const table = page.getByRole('table', { name: 'Notifications' });
  const row = table.getByRole('row').filter({ hasText: mine.machine.name });
  await expect(row).toContainText(own.name);
  await expect(table).not.toContainText(theirs.machine.name);
  await expect(table).not.toContainText(other.name);

  await row.getByRole('button', { name: 'Dismiss' }).click();
  await expect(row).toContainText('Dismissed');
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 0 unread');
  await expect(bell(page).getByTestId('notification-count')).toBeHidden();
});

test('support staff open an alarm whole: its full text, the support article, the machine and the business', async ({
  page,
}) => {
  const business = await createBusiness();
  await logInAsAdmin(page);
  const subscribed = liveSubscribed(page);
  await page.goto('/notifications');
  await subscribed;
  const { machine, locker } = await machineWithLocker(business.id);
  await locker.control({ do: 'alarm', code: 'EM_0016' });

  const row = page.getByRole('row').filter({ hasText: machine.name });
  // The row's message is one line; pressing it opens the notification.
  await row.getByRole('button', { name: /has been triggered/ }).click();
  const dialog = page.getByRole('dialog', { name: `Alarm triggered: ${machine.name}` });
  await expect(dialog).toContainText(
    `The alarm of ${machine.name} at ${business.name} has been triggered: the post box has been left open or someone has tried to gain access without entering the security code.`,
  );
  const article = dialog.getByRole('link', { name: 'https://support.medlocker.co.uk/alarms/EM_0016' });
  await expect(article).toHaveAttribute('href', 'https://support.medlocker.co.uk/alarms/EM_0016');
  await expect(article).toHaveAttribute('target', '_blank');
  await expect(dialog).toContainText('EM_0016 · Alarm triggered');
  await expect(dialog.getByRole('link', { name: business.name })).toHaveAttribute('href', `/businesses/${business.id}`);
  await dialog.getByRole('link', { name: machine.name }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business.id}/machines/${machine.id}$`));
  await expect(page.getByRole('heading', { level: 2, name: machine.name })).toBeVisible();
});

test('a pharmacy user opens their business’s notifications, the seeded out-of-order one with its machine and code, and dismisses from it', async ({
  page,
}) => {
  const harborne = await demoBusiness('Harborne High Street Pharmacy');
  const user = await createUser({ role: { name: 'Business', resource: harborne.id, accessLevels: [] } });
  await logInFresh(page, user.email, user.password);
  await page.goto('/notifications');

  const row = page.getByRole('row').filter({ hasText: 'Patients cannot collect from Car Park' });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Car Park');
  await expect(row.getByRole('cell').nth(3)).toHaveText('MP_0003');
  await row.getByRole('button', { name: /Patients cannot collect/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Car Park is out of order' });
  await expect(dialog).toContainText('Patients cannot collect from Car Park until it is back in order.');
  await expect(dialog).toContainText('MP_0003 · Out of order');
  await expect(dialog.getByRole('link', { name: 'Car Park' })).toHaveAttribute(
    'href',
    new RegExp(`^/businesses/${harborne.id}/machines/[^/]+$`),
  );
  await expect(dialog.getByRole('link', { name: harborne.name })).toHaveAttribute('href', `/businesses/${harborne.id}`);

  const before = await unread(page);
  await dialog.getByRole('button', { name: 'Dismiss Car Park is out of order' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Dismissed');
  await expect.poll(() => unread(page)).toBe(before - 1);
  // Opened again, it says who dismissed it.
  await row.getByRole('button', { name: /Patients cannot collect/ }).click();
  await expect(dialog.getByRole('term').filter({ hasText: 'Dismissed' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Dismiss/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('a short link redirects to its target; an unknown code is a plain 404 page', async ({ page }) => {
  const { url } = await asAdmin<{ url: string }>('url/createUrl', { target: '/auth/login?from=short-link' });
  const path = new URL(url).pathname;
  expect(path).toMatch(/^\/u\/[A-Za-z0-9_-]{22}$/);
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByLabel('Email address')).toBeVisible();

  const missing = await page.goto('/u/no-such-code-at-all');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(page.getByText('This link is not valid')).toBeVisible();
});
