import { createBusiness, createUser, deadJob, expect, logIn, logInAsAdmin, test } from './harness/fixtures.ts';

/** Support's Jobs page: the queues' counts, the jobs by state and type, and Retry on a dead job. */

test('support sees a dead job in its queue and retries it after confirming; it waits again', async ({ page }) => {
  const type = `e2e.fails.${Math.random().toString(36).slice(2, 8)}`;
  await deadJob(type, 'gateway said 400: number not valid');

  await logInAsAdmin(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Jobs' }).click();
  await expect(page).toHaveURL('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const queue = page.getByRole('table', { name: 'Queues' }).getByRole('row', { name: type });
  await expect(queue.getByRole('cell')).toHaveText(['0', '0', '0', '1']);

  // Only dead jobs of that type: the filters go into the address.
  await page.getByRole('button', { name: /State$/ }).click();
  await page.getByRole('option', { name: 'Dead', exact: true }).click();
  await page.getByRole('button', { name: /Type$/ }).click();
  await page.getByRole('option', { name: type }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs\\?(?=.*state=dead)(?=.*type=${type.replaceAll('.', '\\.')})`));
  const jobs = page.getByRole('table', { name: 'Jobs' });
  const row = jobs.getByRole('row').filter({ hasText: type });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Dead');
  await expect(row).toContainText('1 of 1');
  await expect(row).toContainText('gateway said 400: number not valid');

  // Retry asks first; Cancel changes nothing.
  await row.getByRole('button', { name: /^Retry the/ }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Retry job?' });
  await expect(dialog).toContainText('gateway said 400: number not valid');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('Dead');
  await row.getByRole('button', { name: /^Retry the/ }).click();
  await page.getByRole('alertdialog', { name: 'Retry job?' }).getByRole('button', { name: 'Retry job' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  // No longer dead: gone from the dead list, counted as waiting, and shown Waiting under every state (the type filter stays).
  await expect(page.getByText('No jobs found')).toBeVisible();
  await expect(queue.getByRole('cell')).toHaveText(['1', '0', '0', '0']);
  await page.getByRole('button', { name: /State$/ }).click();
  await page.getByRole('option', { name: 'All', exact: true }).click();
  await expect(row).toContainText('Waiting');
  await expect(row).toContainText('0 of 1');
});

test('a pharmacy user has no Jobs entry and is refused the page', async ({ page }) => {
  test.setTimeout(90_000);
  const business = await createBusiness();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await page.goto('/auth/login');
  await logIn(page, user.email, user.password);
  await page.getByLabel('First name').fill('Priya', { timeout: 30_000 });
  await page.getByLabel('Surname').fill('Patel');
  await page.getByRole('button', { name: 'Save' }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Orders' })).toBeVisible({ timeout: 30_000 });
  await expect(menu.getByRole('link', { name: 'Jobs' })).toHaveCount(0);
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
});
