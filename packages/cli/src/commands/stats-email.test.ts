import { expect, it } from 'bun:test';
import { localMailboxOf } from '../../../api/src/mail/mailer.ts';
import { describeApi } from '../../../api/src/testing/api.ts';
import { seedBusiness } from '../../../api/src/testing/hub.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { octoberCsv, octoberEstate, storeMonthlyRows } from '../../../api/src/testing/monthly-email.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker stats email', (t) => {
  const { cli, loggedIn } = cliHarness(t);
  const mailbox = () => localMailboxOf(t.deps.mailer)?.messages ?? [];

  it("emails last month's report, or a chosen month's, by the business's id or name", async () => {
    await loggedIn();
    const id = await seedBusiness(t.db, Bun.randomUUIDv7(), { name: 'Canal St Pharmacy', emails: ['boss@canal.test'] });
    await storeMonthlyRows(t.db, id, octoberEstate);
    const last = await cli(['stats', 'email', '--business', id]);
    expect([last.code, last.stdout]).toEqual([0, 'The October 2026 report was sent to boss@canal.test\n']);
    const [mail] = mailbox().slice(-1);
    expect(mail?.subject).toBe('MedLocker monthly report: Canal St Pharmacy, October 2026');
    expect(mail?.attachments?.[0]?.content).toBe(octoberCsv);
    const chosen = await cli(['stats', 'email', '--business', 'canal st pharmacy', '--month', '2026-09', '--json']);
    expect([chosen.code, chosen.json()]).toEqual([0, { year: 2026, month: 9, sentTo: ['boss@canal.test'] }]);
  });

  it('refuses a bad --month before calling, and says why the API refused', async () => {
    await loggedIn();
    const id = await seedBusiness(t.db, Bun.randomUUIDv7(), { name: 'Quiet Pharmacy' });
    const before = mailbox().length;
    const bad = await cli(['stats', 'email', '--business', id, '--month', '2026-13']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      "--month must be a month written YYYY-MM, e.g. 2026-10, not '2026-13'\n",
    ]);
    const none = await cli(['stats', 'email', '--business', id]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('This business has no notification emails');
    const future = await cli(['stats', 'email', '--business', id, '--month', '2027-01']);
    expect(future.code).toBe(1);
    expect(mailbox()).toHaveLength(before);
  });
});
