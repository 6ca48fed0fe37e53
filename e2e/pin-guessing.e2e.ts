import {
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  earlierWrongPins,
  liveSubscribed,
  logInAsAdmin,
  pairedLocker,
  type SimulatedLocker,
  signInAsNew,
  stopLocker,
  test,
} from './harness/fixtures.ts';

/**
 * Wrong PINs piling up at a locker leave a trace (issue 36 #8; docs/decisions/orders.md "A keypad that
 * slows guessing"): the tenth wrong PIN in an hour records MP_0008 in the machine's events and tells the
 * business's staff in the bell, and support staff see it too. The nine before it are recorded through
 * the harness, earlier in the hour, so the spec does not sit through the keypad's doubling waits.
 */

// Lockers boot, pair and report on their own clock, on a shared, loaded machine: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 180_000 });

let locker: SimulatedLocker | undefined;
test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test('the tenth wrong PIN in an hour shows in the machine’s events and in the bell of the business’s staff and support', async ({
  page,
  browser,
}) => {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  locker = await pairedLocker(machine.id);
  const started = locker;

  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: [] } });
  const subscribed = liveSubscribed(page);
  await signInAsNew(page, user);
  await subscribed;
  const bell = page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAttribute('aria-label', 'Notifications, 0 unread');

  // Nine wrong PINs earlier in the hour, then a tenth typed at the locker now.
  await earlierWrongPins(machine.id, 9);
  await started.control({ do: 'enterPin', pin: '00000000' });
  await expect(bell).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await bell.click();
  const list = page.getByRole('table', { name: 'Notifications' });
  const row = list.getByRole('row').filter({ hasText: machine.name }).filter({ hasText: 'MP_0008' });
  await expect(row).toContainText(`10 wrong PINs have been typed at ${machine.name}`);

  await page.goto(`/businesses/${business.id}/machines/${machine.id}`);
  await page.getByRole('tab', { name: 'Events' }).click();
  const event = page.getByRole('table', { name: 'Events' }).getByRole('row', { name: /MP_0008/ });
  await expect(event).toContainText('10 wrong PINs in 60 minutes');

  // Support staff see it on the notifications page too.
  const support = await browser.newContext();
  try {
    const supportPage = await support.newPage();
    await logInAsAdmin(supportPage);
    await supportPage.goto('/notifications');
    await expect(
      supportPage
        .getByRole('table', { name: 'Notifications' })
        .getByRole('row')
        .filter({ hasText: machine.name })
        .filter({ hasText: 'MP_0008' }),
    ).toContainText(business.name);
  } finally {
    await support.close();
  }
});
