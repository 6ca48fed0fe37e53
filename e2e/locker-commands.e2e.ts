import {
  expect as baseExpect,
  createBusiness,
  createMachine,
  createUser,
  logInAsAdmin,
  pairedLocker,
  type SimulatedLocker,
  signInAsNew,
  stopLocker,
  test,
} from './harness/fixtures.ts';

/*
 * The commands sent to a connected locker from its machine page (issue 38 §4): support restarts it and
 * changes its settings, a pharmacy's Admin asks for its status; each asks first and shows the answer.
 */

const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

let locker: SimulatedLocker | undefined;

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

/** A machine of a new business with a simulated locker paired to it and online. */
async function machineWithLocker() {
  const business = await createBusiness();
  const machine = await createMachine(business.id);
  const started = await pairedLocker(machine.id);
  locker = started;
  return { business, machine, locker: started };
}

test('support restarts a locker and sees it boot again, and changes a setting it accepts or rejects', async ({
  page,
}) => {
  const { business, machine, locker } = await machineWithLocker();
  await logInAsAdmin(page, `/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await expect(page.getByText('Online', { exact: true }).first()).toBeVisible();
  const events = page.getByRole('table', { name: 'Events' });

  // Restart asks first; Cancel sends nothing.
  await page.getByRole('button', { name: 'Restart…' }).click();
  const restart = page.getByRole('alertdialog', { name: 'Restart the locker?' });
  await restart.getByRole('button', { name: 'Cancel' }).click();
  await expect(restart).toHaveCount(0);
  await expect(events.getByRole('row', { name: /MP_0012/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Restart…' }).click();
  await restart.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(page.getByText('Restart (Soft): accepted.')).toBeVisible();
  // On the timeline at once, then the locker's own word that it booted again, live.
  await expect(events.getByRole('row', { name: /MP_0012/ })).toContainText('restarted the locker (Soft): accepted');
  await expect(events.getByRole('row', { name: /EM_0019/ })).toContainText('Booted after a Soft reset');
  await expect.poll(async () => (await locker.view()).status).toBe('online');
  await expect(page.getByText('Online', { exact: true }).first()).toBeVisible();

  // A setting the locker knows, a value it refuses, and a key it does not have.
  const configure = async (key: string, value: string) => {
    await page.getByRole('button', { name: 'Change configuration…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Change configuration?' });
    await dialog.getByLabel('Key').fill(key);
    await dialog.getByLabel('Value').fill(value);
    await dialog.getByRole('button', { name: 'Change configuration' }).click();
    await expect(dialog).toHaveCount(0);
  };
  await configure('HeartbeatInterval', '30');
  await expect(page.getByText('Set HeartbeatInterval to "30": accepted.')).toBeVisible();
  await configure('HeartbeatInterval', 'soon');
  await expect(page.getByText('Set HeartbeatInterval to "soon": rejected.')).toBeVisible();
  await configure('Colour', 'blue');
  await expect(page.getByText('Set Colour to "blue": not supported.')).toBeVisible();
  await expect(events.getByRole('row', { name: /MP_0011/ })).toHaveCount(3);
  await expect(events.getByRole('row', { name: /MP_0011/ }).first()).toContainText(
    'set Colour to "blue": not supported',
  );

  // A machine whose locker is not connected: the commands are there, disabled, with the reason.
  const offline = await createMachine(business.id);
  await page.goto(`/businesses/${business.id}/machines/${offline.id}`);
  await expect(page.getByText('The locker is offline: it cannot be reached now')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restart…' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Request status' })).toBeDisabled();
});

test("a pharmacy's Admin requests a locker's status, and is not offered a restart or a configuration change", async ({
  page,
}) => {
  const { business, machine } = await machineWithLocker();
  const user = await createUser({ role: { name: 'Business', resource: business.id, accessLevels: ['Admin'] } });
  await signInAsNew(page, user, undefined, `/businesses/${business.id}/machines/${machine.id}`);
  await expect(page.getByRole('heading', { name: machine.name })).toBeVisible();
  await page.getByRole('button', { name: 'Request status' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Request status?' });
  await dialog.getByRole('button', { name: 'Request status' }).click();
  await expect(page.getByText('Send a StatusNotification: accepted.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Events' }).getByRole('row', { name: /MP_0010/ })).toContainText(
    'asked the locker for a StatusNotification: accepted',
  );
  await expect(page.getByRole('button', { name: 'Restart…' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change configuration…' })).toHaveCount(0);
});
