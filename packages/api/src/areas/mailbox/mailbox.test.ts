import { expect, it, setDefaultTimeout } from 'bun:test';
import { configuredGateways } from '../../delivery/messages/gateways/index.ts';
import { messageSendHandler } from '../../delivery/messages/send.ts';
import { createRunner } from '../../jobs/runner.ts';
import { createLocalTexts } from '../../mail/local-texts.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { messagePort } from '../messages/index.ts';

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
    expect([res.body.active, res.body.mail]).toEqual([true, true]);
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

/** Runs the queued sends, as the api process's job runner does. */
async function sendQueued(t: TestApi) {
  const runner = createRunner({
    db: t.db,
    logger: t.deps.logger,
    now: t.deps.now,
    handlers: {
      'message.send': messageSendHandler(t.deps, {
        gateways: configuredGateways(t.deps.config, t.deps.mailer),
        areas: messagePort(t.deps),
      }),
    },
  });
  await runner.tick();
  await runner.idle();
}

/** A patient asks for a code by text (the default gateway, AWS, has no credentials here: the local gateway). */
async function textACode(t: TestApi) {
  const estate = await chargingBusiness(t);
  const orderId = await chargedOrder(t, estate);
  expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(200);
  await sendQueued(t);
  return { orderId, mobile: testPatient(1).mobileNumber as string };
}

describeApi(
  'local texts',
  (t) => {
    it('shows support staff an SMS the local gateway stood in for, with its words: a patient’s code that works', async () => {
      const { orderId, mobile } = await textACode(t);
      const res = await t.call('mailbox', 'listTexts', {}, asSupport);
      expect(res.status).toBe(200);
      expect(res.body.active).toBe(true);
      const [text] = res.body.messages;
      expect(text).toMatchObject({ channel: 'sms', provider: 'aws-sms', to: mobile });
      const code = /^(\d{6}) is your/.exec(text?.text ?? '')?.[1] ?? '';
      // The code read there opens the order, as the patient would type it.
      expect((await t.call('auth', 'verifySmsCode', { orderId, code })).status).toBe(200);
    });

    it('is for support staff only: the texts hold PINs and codes', async () => {
      expect((await t.call('mailbox', 'listTexts', {})).status).toBe(401);
      expect((await t.call('mailbox', 'listTexts', {}, { cookie: 'session=pharmacy' })).status).toBe(403);
    });
  },
  withTestAuth,
);

const production = {
  NODE_ENV: 'production',
  SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
  SMTP_URL: 'smtp://mail.example.test:587',
  PUBLIC_URL: 'https://lockers.example.test',
};

describeApi(
  'local texts in production',
  (t) => {
    it('keeps none and shows none: a text without a provider fails instead', async () => {
      expect(t.deps.localTexts).toBeUndefined();
      await textACode(t);
      const row = await t.db.selectFrom('message_outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'failed', last_error: 'No aws-sms gateway is configured (AWS_REGION)' });
      expect((await t.call('mailbox', 'listTexts', {}, asSupport)).body).toEqual({ active: false, messages: [] });
    });
  },
  withTestAuth,
  production,
);

describeApi(
  'local texts in production, from a process that kept some',
  (t) => {
    it('shows none even from a process that kept some', async () => {
      t.deps.localTexts?.keep({
        reference: 'm1',
        channel: 'sms',
        provider: 'aws-sms',
        to: '07700900001',
        sender: 'X',
        text: 'PIN 1234 5678',
      });
      expect((await t.call('mailbox', 'listTexts', {}, asSupport)).body).toEqual({ active: false, messages: [] });
    });
  },
  // A hand-made production process given a store anyway.
  () => ({ ...withTestAuth(), localTexts: createLocalTexts() }),
  production,
);

describeApi(
  'local mailbox with SMTP configured',
  (t) => {
    it('says mail is not kept, and holds none; the Mailbox is still in use for text messages', async () => {
      const { cookie } = await t.signIn({ support: true });
      await t.call('auth', 'beginResetPassword', { email: 'nobody@pharmacy.test', frontEnd: 'support' });
      const res = await t.call('mailbox', 'list', {}, { cookie });
      expect(res.body).toEqual({ active: true, mail: false, messages: [] });
    });
  },
  () => ({ mailer: { send: async () => {} } }),
);

describeApi(
  'local mailbox with SMTP and every text provider configured',
  (t) => {
    it('is not in use at all', async () => {
      const { cookie } = await t.signIn({ support: true });
      const res = await t.call('mailbox', 'list', {}, { cookie });
      expect(res.body).toEqual({ active: false, mail: false, messages: [] });
    });
  },
  // As a production process: an SMTP mailer and no local texts.
  () => ({ mailer: { send: async () => {} }, localTexts: undefined }),
);
