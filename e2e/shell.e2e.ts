import { admin, expect, logInAsAdmin, test } from './harness/fixtures.ts';

const unreachable = 'The MedLocker server could not be reached';

test('the side menu leads to every area, each page titled with the product name', async ({ page }) => {
  await logInAsAdmin(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const areas = [
    ['Businesses', '/businesses'],
    ['Groups', '/groups'],
    ['Support Users', '/users'],
    ['Alarm Message Templates', '/alarmMessageTemplates'],
    ['Global Settings', '/globalSettings'],
    ['Jobs', '/jobs'],
    ['Audit trail', '/audit'],
    ['Identity Providers', '/identityProviders'],
    ['Dashboard', '/'],
  ] as const;
  for (const [name, path] of areas) {
    await menu.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`${path.replace('/', '\\/')}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveTitle(`${name} | MedLocker`);
    await expect(menu.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  }
});

test('below 768 px the menu folds behind a toggle that closes after choosing', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 800 });
  await logInAsAdmin(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(menu).toBeVisible();
  await expect(page.getByText('Logged in as')).toBeVisible();
  await menu.getByRole('link', { name: 'Groups' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expect(menu).toBeHidden();

  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
});

test('an unreachable server is reported in words', async ({ page }) => {
  await page.goto('/auth/login');
  await page.route('**/api/auth/getIdentityProviderAuthUrl', (route) => route.abort('connectionrefused'));
  await page.getByLabel('Email address').fill(admin.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert')).toHaveText(unreachable);

  // A returning user (the console remembers a session was open) asks the server on load.
  await page.evaluate(() => localStorage.setItem('medlocker.session', '1'));
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.goto('/users');
  await expect(page.getByText(unreachable)).toBeVisible();
  await page.unroute('**/api/**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?from=%2Fusers$/);
});
