import { expect, it } from 'bun:test';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { seedBusiness } from '../../../api/src/testing/hub.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker messages', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  /** An alarm to a keyholder (sent), an alarm email that failed, and a sign-up code, oldest first. */
  async function outbox(businessId: string) {
    const at = Date.UTC(2026, 10, 2, 9, 30);
    const base = { business_id: businessId, next_attempt_at: at, created: at, updated: at };
    await t.db
      .insertInto('message_outbox')
      .values([
        {
          ...base,
          id: '01900000-0000-7000-8000-000000000001',
          channel: 'sms',
          recipient: '+447700900123',
          template_key: 'alarm.EM_0003',
          body: 'There has been a power disruption at Locker 1 at High St. Please check your mains supply.',
          status: 'success',
          attempts: 1,
          sent_at: at + 1000,
        },
        {
          ...base,
          id: '01900000-0000-7000-8000-000000000002',
          channel: 'email',
          recipient: 'alerts@pharmacy.test',
          template_key: 'alarm.EM_0003',
          subject: 'Mains power failure: Locker 1',
          body: 'There has been a power disruption at Locker 1 at High St.',
          status: 'failed',
          attempts: 5,
          last_error: 'mailbox unavailable',
        },
        {
          ...base,
          id: '01900000-0000-7000-8000-000000000003',
          channel: 'sms',
          recipient: '+447700900456',
          template_key: 'signUpMobileCode',
          body: 'Your MedLocker sign-up code is 123456. It expires in 15 minutes.',
        },
      ])
      .execute();
  }

  it("lists a business's messages newest first, a sign-up code's body hidden", async () => {
    await loggedIn();
    await seedBusiness(t.db);
    await outbox('b1');
    const res = await cli(['messages', 'list', '--business', 'b1']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Queued\s+Channel\s+To\s+Kind\s+Status\s+Tries\s+Message$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['02-11-2026 09:30:00', 'sms', '+447700900456', 'signUpMobileCode', 'pending', '0', 'hidden'],
      [
        '02-11-2026 09:30:00',
        'email',
        'alerts@pharmacy.test',
        'alarm.EM_0003',
        'failed',
        '5',
        'There has been a power disruption at Locker 1 at High St.',
      ],
      [
        '02-11-2026 09:30:00',
        'sms',
        '+447700900123',
        'alarm.EM_0003',
        'success',
        '1',
        'There has been a power disruption at Locker 1 at High St. P…',
      ],
    ]);
    expect(res.stdout).not.toContain('123456');
  });

  it('filters by --status and prints the messages whole with --json', async () => {
    await loggedIn();
    await seedBusiness(t.db);
    await outbox('b1');
    const res = await cli(['messages', 'list', '--business', 'b1', '--status', 'failed', '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({
      messages: [
        {
          id: '01900000-0000-7000-8000-000000000002',
          channel: 'email',
          recipient: 'alerts@pharmacy.test',
          templateKey: 'alarm.EM_0003',
          subject: 'Mains power failure: Locker 1',
          body: 'There has been a power disruption at Locker 1 at High St.',
          status: 'failed',
          attempts: 5,
          lastError: 'mailbox unavailable',
          created: Date.UTC(2026, 10, 2, 9, 30),
          sentAt: null,
        },
      ],
      nextToken: null,
    });
    const pending = await cli(['messages', 'list', '--business', 'b1', '--status', 'pending', '--json']);
    expect(pending.json().messages.map((m: { body: string | null }) => m.body)).toEqual([null]);
  });

  it('says so when there are none, and refuses an unknown business or status', async () => {
    await loggedIn();
    await seedBusiness(t.db);
    expect((await cli(['messages', 'list', '--business', 'b1'])).stdout).toBe('No messages found\n');
    const unknown = await cli(['messages', 'list', '--business', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No business has the id or name "nope"');
    const status = await cli(['messages', 'list', '--business', 'b1', '--status', 'sent']);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain("argument 'sent' is invalid");
    expect((await cli(['messages', 'list'])).code).toBe(2);
  });
});
