import { expect, it, setDefaultTimeout } from 'bun:test';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';

// Each login hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

describeApi('local mailbox', (t) => {
  it('shows support staff each message sent without SMTP, newest first, with its links', async () => {
    const { cookie } = await t.signIn({ support: true });
    await t.createUser({ email: 'rose@pharmacy.test', password: 'a long enough passphrase' });
    await t.createUser({ email: 'sam@pharmacy.test', password: 'a long enough passphrase' });
    await t.call('auth', 'beginResetPassword', { email: 'rose@pharmacy.test', frontEnd: 'support' });
    await t.call('auth', 'beginResetPassword', { email: 'sam@pharmacy.test', frontEnd: 'support' });
    const res = await t.call('mailbox', 'list', {}, { cookie });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(true);
    expect(res.body.messages.map((m) => [m.to, m.subject])).toEqual([
      ['sam@pharmacy.test', 'Reset your MedLocker password'],
      ['rose@pharmacy.test', 'Reset your MedLocker password'],
    ]);
    const link = res.body.messages[1]?.links.find((l) => l.includes('/auth/reset#token='));
    expect(link?.startsWith(`${TEST_ORIGIN}/auth/reset#token=`)).toBe(true);
    // The link works: it sets Rose's password.
    const token = decodeURIComponent(link?.split('#token=')[1] ?? '');
    const done = await t.call('auth', 'completeResetPassword', { password: 'a brand new passphrase', token });
    expect(done.status).toBe(200);
  });

  it('shows the files sent with a message, to download', async () => {
    const { cookie } = await t.signIn({ support: true });
    await t.deps.mailer.send({
      to: 'owner@pharmacy.test',
      subject: 'Monthly report',
      text: 'Attached.',
      attachments: [{ filename: 'report.csv', contentType: 'text/csv', content: 'Month,£\r\n2026-10,1.00\r\n' }],
    });
    const res = await t.call('mailbox', 'list', {}, { cookie });
    expect(res.body.messages[0]?.attachments).toEqual([
      {
        filename: 'report.csv',
        contentType: 'text/csv',
        size: 24,
        base64: Buffer.from('Month,£\r\n2026-10,1.00\r\n').toString('base64'),
      },
    ]);
  });

  it('is for support staff only: the messages hold sign-in links', async () => {
    const pharmacy = await t.signIn({ email: 'p@pharmacy.test' });
    expect((await t.call('mailbox', 'list', {})).status).toBe(401);
    expect((await t.call('mailbox', 'list', {}, { cookie: pharmacy.cookie })).status).toBe(403);
  });
});

describeApi(
  'local mailbox with SMTP configured',
  (t) => {
    it('says it is not in use, and holds nothing', async () => {
      const { cookie } = await t.signIn({ support: true });
      await t.call('auth', 'beginResetPassword', { email: 'nobody@pharmacy.test', frontEnd: 'support' });
      const res = await t.call('mailbox', 'list', {}, { cookie });
      expect(res.body).toEqual({ active: false, messages: [] });
    });
  },
  () => ({ mailer: { send: async () => {} } }),
);
