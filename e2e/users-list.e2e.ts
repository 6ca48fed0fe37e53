import { admin, call, expect, logInAsAdmin, signedInApi, test } from './harness/fixtures.ts';

test('the support users list loads the next page as it is scrolled', async ({ page }) => {
  test.setTimeout(60_000);
  // More support users than one page (25) holds, all sharing a prefix to search by.
  const prefix = `scroll-${Date.now().toString(36)}`;
  const total = 32;
  const api = await signedInApi(admin.email, admin.password);
  for (let i = 0; i < total; i++) {
    const n = String(i).padStart(2, '0');
    await call(api, 'auth/addRoles', {
      addIdpByDefault: false,
      email: `${prefix}-${n}@e2e.medlocker.test`,
      frontEnd: 'support',
      roles: [{ name: 'Support', accessLevels: [] }],
    });
  }
  await api.dispose();

  await logInAsAdmin(page, '/users');
  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  const table = page.getByRole('table', { name: 'Support users' });
  await expect(table.getByRole('link', { name: `${prefix}-00@e2e.medlocker.test` })).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', String(25 + 1));

  // Scrolling to the end asks for the next page; when it arrives the list grows below the viewport, so
  // keep scrolling to the end until the last user shows (a busy machine can take seconds to answer).
  const last = table.getByRole('link', { name: `${prefix}-${total - 1}@e2e.medlocker.test` });
  await expect(async () => {
    await table.locator('.vlist__scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(last).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await expect(table).toHaveAttribute('aria-rowcount', String(total + 1));
});
