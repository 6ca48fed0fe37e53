import {
  asAdmin,
  expect as baseExpect,
  createMachine,
  logInAsAdmin,
  mailTo,
  pairedLocker,
  type SimulatedLocker,
  stopLocker,
  test,
  uniqueEmail,
  uniqueName,
} from './harness/fixtures.ts';

/** A business's Messages page: what its alarms queued to its keyholders, with a status filter kept for the session. */

// A simulated locker starts, pairs and boots on its own clock: allow for it.
const expect = baseExpect.configure({ timeout: 25_000 });
test.describe.configure({ timeout: 120_000 });

let locker: SimulatedLocker | undefined;

test.afterEach(async () => {
  await stopLocker(locker, test.info());
  locker = undefined;
});

test("a locker's alarm queues an SMS and an email to the keyholders, sent at once and listed on the business's Messages page", async ({
  page,
}) => {
  const keyholderEmail = uniqueEmail('keyholder');
  const { business } = await asAdmin<{ business: { id: string; name: string } }>('businesses/createBusiness', {
    name: uniqueName('E2E Pharmacy'),
    email: uniqueEmail('pharmacy'),
    address: { line1: '1 High Street', postTown: 'Leeds', postcode: 'LS1 1AA' },
    keyholdersMobileNumbers: ['07700 900461'],
    notificationEmails: [keyholderEmail],
  });

  // The business's locker is paired, comes online and raises a mains power failure. (A QA test
  // machine's alarms would go to the person who added it alone: machine-checks.e2e.ts, hub.test.ts.)
  const machine = await createMachine(business.id);
  locker = await pairedLocker(machine.id);
  await locker.control({ do: 'alarm', code: 'EM_0003' });
  const statuses = async () =>
    (
      await asAdmin<{ messages: { status: string }[] }>('messages/listOutbox', { businessId: business.id })
    ).messages.map((m) => m.status);
  // The job runner sends both at once: the SMS through the local gateway (this server has no SMS
  // credentials), the email to the mail catcher.
  await expect.poll(statuses, { timeout: 20_000 }).toEqual(['success', 'success']);
  const wording = `There has been a power disruption at ${machine.name} at ${business.name}`;
  const mail = await mailTo(keyholderEmail);
  expect(mail.subject).toBe(`Mains power failure: ${machine.name}`);
  expect(mail.text).toContain(wording);

  // Support finds them from the business's page, under its Messages section.
  await logInAsAdmin(page, `/businesses/${business.id}`);
  await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page).toHaveURL(`/businesses/${business.id}/messages`);
  await expect(page).toHaveTitle(/^Messages/);
  const table = page.getByRole('table', { name: 'Messages' });
  const sms = table.getByRole('row').filter({ hasText: '+447700900461' });
  const email = table.getByRole('row').filter({ hasText: keyholderEmail });
  for (const [row, channel] of [
    [sms, 'SMS'],
    [email, 'Email'],
  ] as const) {
    await expect(row).toContainText(channel);
    await expect(row).toContainText('Alarm EM_0003');
    await expect(row).toContainText(wording);
    await expect(row).toContainText('Sent');
    await expect(row).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}/);
  }

  // The whole email, with its subject, in a dialog.
  await email.getByRole('button', { name: /^View the Email to/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Message' });
  await expect(dialog).toContainText(`Mains power failure: ${machine.name}`);
  await expect(dialog).toContainText(`${wording}. Please check your mains supply and reset your unit`);
  await expect(dialog).toContainText('1 attempt');
  await expect(dialog).toContainText(/, sent \d{2}-\d{2}-\d{4}/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // Nothing is left pending: the Pending filter finds nothing; it is kept in the URL (and for the session).
  const status = page.getByRole('button', { name: /Status/ });
  await status.click();
  await page.getByRole('option', { name: 'Pending', exact: true }).click();
  await expect(page.getByText('No messages found')).toBeVisible();
  await expect(page).toHaveURL(/\/messages\?status=pending$/);
  await page.reload();
  await expect(page.getByText('No messages found')).toBeVisible();
  await expect(status).toContainText('Pending');
  await status.click();
  await page.getByRole('option', { name: 'Sent', exact: true }).click();
  await expect(table.getByRole('row').filter({ hasText: wording })).toHaveCount(2);
});
