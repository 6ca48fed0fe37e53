import { request as playwrightRequest } from '@playwright/test';
import { expectAccessible } from './harness/axe.ts';
import {
  baseURL,
  call,
  createBusiness,
  createUser,
  expect,
  logInAsAdmin,
  signInAsNew,
  test,
} from './harness/fixtures.ts';

/*
 * `medlocker login --browser`: the cli's code is approved on the console's /cli page, by
 * support staff and by a pharmacy user; the cli's polling then gets its session.
 */

type Begun = { deviceCode: string; userCode: string; verificationUrl: string };

for (const who of ['support', 'pharmacy'] as const) {
  test(`a ${who} user approves a command-line sign-in and the cli gets its session`, async ({ page }) => {
    const cliApi = await playwrightRequest.newContext({ baseURL });
    try {
      const begun = await call<Begun>(cliApi, 'auth/beginCliSignIn', {});
      if (who === 'support') {
        await logInAsAdmin(page);
      } else {
        const business = await createBusiness();
        const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
        await signInAsNew(page, user);
      }
      await page.goto(new URL(begun.verificationUrl).pathname + new URL(begun.verificationUrl).search);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign In the Command Line' })).toBeVisible();
      await expect(page.getByText(begun.userCode)).toBeVisible();
      await expectAccessible(page, `${who} approving a cli sign-in`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByText('The command line is signed in. You can close this page.')).toBeVisible();
      const polled = await call<{ status: string; token?: string }>(cliApi, 'auth/pollCliSignIn', {
        deviceCode: begun.deviceCode,
      });
      expect(polled.status).toBe('approved');
      expect(polled.token).toBeTruthy();
    } finally {
      await cliApi.dispose();
    }
  });
}

test('an unknown code is refused in words', async ({ page }) => {
  await logInAsAdmin(page, '/cli?code=BCDF-GHJK');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('This code is not valid any more. Run medlocker login again.')).toBeVisible();
});
