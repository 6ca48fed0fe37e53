import { expect, it } from 'bun:test';
import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { messagingReportRoutes } from '../../callbacks/message-reports.ts';
import { snsStringToSign } from '../../callbacks/sns.ts';
import { createLogger } from '../../log/logger.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { applyDeliveryReport } from './delivery-reports.ts';
import { messageReportUrl, providerReportUrl, reportUrlFor, whatsAppReportUrl } from './report-urls.ts';

const APP_SECRET = 'whatsapp-app-secret-for-tests';
const VERIFY_TOKEN = 'verify-token-0123456789';

/** Log lines the app wrote, parsed. */
const logged: { msg: string; providerMessageId?: string }[] = [];

/** An order through the API, and a sent SMS about it: the outbox row as the sender leaves it. */
async function sentMessage(
  t: TestApi,
  provider: string,
  providerMessageId: string,
  options: { channel?: 'sms' | 'email' | 'whatsapp'; orderId?: string; businessId?: string; id?: string } = {},
) {
  let { orderId, businessId } = options;
  if (!orderId || !businessId) {
    const as = { cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie };
    businessId = await insertBusiness(t.db);
    const patient = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const machine = await t.call('machines', 'createMachine', { businessId, name: 'Locker 1', numberOfSlots: 12 }, as);
    const order = await t.call(
      'orders',
      'create',
      { businessId, patientId: patient.body.patient.id, machineId: machine.body.machine.id, barcode: 'RX-1' },
      as,
    );
    expect(order.status).toBe(200);
    orderId = order.body.order.id as string;
  }
  const id = options.id ?? Bun.randomUUIDv7();
  const channel = options.channel ?? 'sms';
  await t.db
    .insertInto('message_outbox')
    .values({
      id,
      business_id: businessId,
      order_id: orderId,
      channel,
      recipient: channel === 'email' ? 'ada@example.com' : '+447700900123',
      template_key: 'orderReady',
      body: 'Your order is ready',
      next_attempt_at: 1,
      provider,
      provider_message_id: providerMessageId,
      sent_at: 2,
      created: 1,
      updated: 2,
    })
    .execute();
  return { id, orderId, businessId };
}

const messageRow = (t: TestApi, id: string) =>
  t.db.selectFrom('message_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const orderRow = (t: TestApi, id: string) =>
  t.db
    .selectFrom('orders')
    .select(['last_notification_status', 'last_email_status', 'updated'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const events = (t: TestApi, orderId: string) =>
  t.db
    .selectFrom('order_events')
    .select(['code', 'message'])
    .where('order_id', '=', orderId)
    .where('code', 'like', 'MESSAGE_%')
    .orderBy('id')
    .execute();

import { messagePort } from '../../areas/messages/index.ts';
import { json } from '../../areas/orders/mapping-repository.ts';

/** A report URL's path and query, for `t.raw`. */
const pathOf = (url: string | undefined) => {
  if (!url) throw new Error('no report URL: PUBLIC_URL is unset');
  const u = new URL(url);
  return u.pathname + u.search;
};

/** The test's SNS signing key: SNS's certificate at CERT_URL, as far as the routes under test know. */
const snsKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const CERT_URL = 'https://sns.eu-west-2.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem';

/**
 * An SNS message signed as SNS signs it (AWS, "Verifying the signatures of Amazon SNS messages"), written
 * out here rather than through the code under test: `Name\nvalue\n` for each signed field in order.
 */
function signSns(
  envelope: Record<string, unknown>,
  version: '1' | '2' = '2',
  key: KeyObject = snsKey.privateKey,
): Record<string, unknown> {
  const fields =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = fields
    .filter((f) => envelope[f] !== undefined)
    .map((f) => `${f}\n${envelope[f]}\n`)
    .join('');
  const signature = sign(version === '1' ? 'sha1' : 'sha256', Buffer.from(text), key).toString('base64');
  return { ...envelope, SignatureVersion: version, Signature: signature, SigningCertURL: CERT_URL };
}

/** The report routes with the test's SNS key and a recording subscription confirmer, and a poster of signed notifications. */
function snsRoutes(t: TestApi, url: string) {
  const visited: string[] = [];
  const routes = messagingReportRoutes(t.deps, {
    snsSigningKeys: async (certUrl) => {
      expect(certUrl).toBe(CERT_URL);
      return snsKey.publicKey;
    },
    confirmSnsSubscription: async (u) => {
      visited.push(u);
    },
  });
  const notification = (event: Record<string, unknown>) => ({
    Type: 'Notification',
    MessageId: Bun.randomUUIDv7(),
    TopicArn: 'arn:aws:sns:eu-west-2:123456789012:sms-events',
    Message: JSON.stringify(event),
    Timestamp: '2026-11-02T09:31:00.000Z',
    UnsubscribeURL: 'https://sns.eu-west-2.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x',
  });
  // SNS posts text/plain, with its message type in a header.
  const send = (body: Record<string, unknown>, path = url) =>
    routes.handle(
      new Request(`${TEST_ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': String(body.Type) },
        body: JSON.stringify(body),
      }),
    );
  /** Signs (SignatureVersion 2 unless told, with the test's key unless told) and posts. */
  const post = (body: Record<string, unknown>, version: '1' | '2' = '2', path = url, key?: KeyObject) =>
    send(signSns(body, version, key), path);
  return { visited, notification, post, send };
}

const postJson = (t: TestApi, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.raw(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describeApi(
  'delivery reports',
  (t) => {
    it('The SMS Works: DELIVERED marks the message and the order delivered, with an order event, once', async () => {
      const m = await sentMessage(t, 'smsworks', 'sw-1');
      t.advance(60_000);
      const url = pathOf(messageReportUrl(t.deps.config, 'smsworks', m.id));
      // The message object The SMS Works posts (its API schema 1.9: MessageResponse; destination a number).
      const report = {
        messageid: 'sw-1',
        customerid: 'c-123',
        status: 'DELIVERED',
        destination: 447700900123,
        sender: 'MedLocker',
        content: 'Your order is ready',
        tag: m.id,
        schedule: '',
        created: '2026-11-02T09:30:00.000Z',
        modified: '2026-11-02T09:31:00.000Z',
        credits: 1,
      };
      const res = await postJson(t, url, report);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ outcome: 'applied' });

      const row = await messageRow(t, m.id);
      expect(row).toMatchObject({ status: 'success', provider_status: 'DELIVERED', updated: t.deps.now() });
      expect(json(row.provider_details)).toEqual(report);
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('success');
      expect(await events(t, m.orderId)).toEqual([{ code: 'MESSAGE_DELIVERED', message: 'SMS delivered' }]);

      // The same report again, and a late SENT, change nothing more.
      await postJson(t, url, report);
      const late = await postJson(t, url, { messageid: 'sw-1', status: 'SENT' });
      expect(await late.json()).toEqual({ outcome: 'stale' });
      expect((await messageRow(t, m.id)).status).toBe('success');
      expect(await events(t, m.orderId)).toHaveLength(1);

      const got = await t.call(
        'orders',
        'get',
        { id: m.orderId },
        { cookie: (await t.signIn({ support: true })).cookie },
      );
      expect(got.body.order.lastNotificationStatus).toBe('success');
    });

    it('The SMS Works: UNDELIVERABLE fails the message with the provider’s reason on the order’s timeline', async () => {
      const m = await sentMessage(t, 'smsworks', 'sw-2');
      const url = pathOf(messageReportUrl(t.deps.config, 'smsworks', m.id));
      const pending = await postJson(t, url, { messageid: 'sw-2', status: 'SENT' });
      expect(pending.status).toBe(200);
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('pending');
      expect(await events(t, m.orderId)).toEqual([]);

      await postJson(t, url, {
        messageid: 'sw-2',
        status: 'UNDELIVERABLE',
        failurereason: { code: 3, details: 'Handset switched off', permanent: false },
      });
      expect(await messageRow(t, m.id)).toMatchObject({
        status: 'failed',
        provider_status: 'UNDELIVERABLE',
        last_error: 'Handset switched off',
      });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('failed');
      expect(await events(t, m.orderId)).toEqual([
        { code: 'MESSAGE_FAILED', message: 'SMS failed: Handset switched off' },
      ]);
    });

    it('The SMS Works: REJECTED with the older failureReason spelling fails the message with its details', async () => {
      const m = await sentMessage(t, 'smsworks', 'sw-3');
      const url = pathOf(messageReportUrl(t.deps.config, 'smsworks', m.id));
      await postJson(t, url, {
        messageid: 'sw-3',
        status: 'REJECTED',
        destination: 447700900123,
        tag: m.id,
        failureReason: { code: 8, details: 'Number barred by network', permanent: true },
      });
      expect(await messageRow(t, m.id)).toMatchObject({ status: 'failed', last_error: 'Number barred by network' });
      expect(await events(t, m.orderId)).toEqual([
        { code: 'MESSAGE_FAILED', message: 'SMS failed: Number barred by network' },
      ]);
      // A failure without a reason says the provider's word.
      const n = await sentMessage(t, 'smsworks', 'sw-4', { orderId: m.orderId, businessId: m.businessId });
      await postJson(t, pathOf(messageReportUrl(t.deps.config, 'smsworks', n.id)), {
        messageid: 'sw-4',
        status: 'EXPIRED',
      });
      expect((await events(t, m.orderId)).at(-1)).toEqual({ code: 'MESSAGE_FAILED', message: 'SMS failed: expired' });
    });

    it('refuses a wrong or borrowed token (401) and changes nothing', async () => {
      const a = await sentMessage(t, 'smsworks', 'sw-a');
      const b = await sentMessage(t, 'smsworks', 'sw-b', { orderId: a.orderId, businessId: a.businessId });
      const urlA = pathOf(messageReportUrl(t.deps.config, 'smsworks', a.id));
      const forged = urlA.replace(/[^/]+$/, 'x'.repeat(43));
      expect((await postJson(t, forged, { messageid: 'sw-a', status: 'DELIVERED' })).status).toBe(401);
      // A's token on B's path.
      const borrowed = urlA.replace(a.id, b.id);
      expect((await postJson(t, borrowed, { messageid: 'sw-b', status: 'DELIVERED' })).status).toBe(401);
      // A's own address reporting on B: B is not A's, so it is nobody's.
      const crossed = await postJson(t, urlA, { messageid: 'sw-b', status: 'DELIVERED' });
      expect(crossed.status).toBe(200);
      expect(await crossed.json()).toEqual({ outcome: 'unknown' });
      expect((await messageRow(t, a.id)).status).toBe('pending');
      expect((await messageRow(t, b.id)).status).toBe('pending');
      expect(json((await orderRow(t, a.orderId)).last_notification_status)).toBeNull();
      // A report without its fields is a 400, not a 500.
      expect((await postJson(t, urlA, { hello: 1 })).status).toBe(400);
      expect((await t.raw(urlA, { method: 'POST', body: 'not json' })).status).toBe(400);
    });

    it('gives per-message report URLs on PUBLIC_URL only to the providers that take them', () => {
      const config = t.deps.config;
      const url = reportUrlFor(config, 'smsworks', 'm-1') ?? '';
      expect(url).toMatch(/^http:\/\/medlocker\.test\/hooks\/messages\/smsworks\/m-1\/[A-Za-z0-9_-]{43}$/);
      expect(reportUrlFor(config, 'messagebird', 'm-1')).toStartWith(`${TEST_ORIGIN}/hooks/messages/messagebird/m-1/`);
      // Unguessable per message and per provider.
      expect(reportUrlFor(config, 'smsworks', 'm-2')?.split('/').at(-1)).not.toBe(url.split('/').at(-1));
      expect(reportUrlFor(config, 'messagebird', 'm-1')?.split('/').at(-1)).not.toBe(url.split('/').at(-1));
      for (const p of ['aws-sms', 'whatsapp', 'email'] as const) expect(reportUrlFor(config, p, 'm-1')).toBeUndefined();
    });

    it('answers 200 and logs a report for a message that is not ours', async () => {
      logged.length = 0;
      const url = pathOf(messageReportUrl(t.deps.config, 'smsworks', 'no-such-message'));
      const res = await postJson(t, url, { messageid: 'sw-unknown', status: 'DELIVERED' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ outcome: 'unknown' });
      expect(logged).toContainEqual(
        expect.objectContaining({ msg: 'delivery report for no message of ours', providerMessageId: 'sw-unknown' }),
      );
    });

    it('MessageBird: GET reports with id and status, delivered then a failure with its reason', async () => {
      const ok = await sentMessage(t, 'messagebird', 'mb-1');
      const okUrl = pathOf(messageReportUrl(t.deps.config, 'messagebird', ok.id));
      const res = await t.raw(
        // The status report's documented query: id, reference, recipient, status, statusReason,
        // statusErrorCode, statusDatetime, and the operator and price fields.
        `${okUrl}?id=mb-1&reference=${ok.id}&recipient=447700900123&status=delivered&statusReason=successfully%20delivered&statusErrorCode=&statusDatetime=2026-11-02T09:31:00%2B00:00&mccmnc=23415&ported=0&price%5Bamount%5D=0.035&price%5Bcurrency%5D=GBP&messageLength=19&messagePartCount=1`,
      );
      expect(res.status).toBe(200);
      expect(await messageRow(t, ok.id)).toMatchObject({ status: 'success', provider_status: 'delivered' });
      expect(json((await orderRow(t, ok.orderId)).last_notification_status)).toBe('success');
      expect(await events(t, ok.orderId)).toEqual([{ code: 'MESSAGE_DELIVERED', message: 'SMS delivered' }]);

      const bad = await sentMessage(t, 'messagebird', 'mb-2', { orderId: ok.orderId, businessId: ok.businessId });
      const badUrl = pathOf(messageReportUrl(t.deps.config, 'messagebird', bad.id));
      await t.raw(`${badUrl}?id=mb-2&status=delivery_failed&statusReason=unknown%20subscriber&statusErrorCode=1`);
      expect(await messageRow(t, bad.id)).toMatchObject({ status: 'failed', last_error: 'unknown subscriber' });
      // The later message is the order's last one now.
      expect(json((await orderRow(t, ok.orderId)).last_notification_status)).toBe('failed');
      expect((await events(t, ok.orderId)).at(-1)).toEqual({
        code: 'MESSAGE_FAILED',
        message: 'SMS failed: unknown subscriber',
      });

      // A late report on the older message no longer moves the order.
      // Sent before both (a smaller UUIDv7), reported late.
      const olderId = '00000000-0000-7000-8000-000000000001';
      await sentMessage(t, 'messagebird', 'mb-0', { orderId: ok.orderId, businessId: ok.businessId, id: olderId });
      await t.raw(`${pathOf(messageReportUrl(t.deps.config, 'messagebird', olderId))}?id=mb-0&status=delivered`);
      expect((await messageRow(t, olderId)).status).toBe('success');
      expect(json((await orderRow(t, ok.orderId)).last_notification_status)).toBe('failed');
      // It is still news about a message of the order: on the timeline.
      expect((await events(t, ok.orderId)).at(-1)).toEqual({ code: 'MESSAGE_DELIVERED', message: 'SMS delivered' });

      expect((await t.raw(`${badUrl.replace(/[^/]+$/, 'nope')}?id=mb-2&status=delivered`)).status).toBe(401);
      expect((await t.raw(`${badUrl}?status=delivered`)).status).toBe(400);
    });

    it('AWS: the SNS string to sign is the type’s fields in order, Subject only when present', () => {
      // AWS, "Verifying the signatures of Amazon SNS messages": `Name\nvalue\n` per signed field.
      const base = {
        Type: 'Notification',
        MessageId: 'm-1',
        TopicArn: 'arn:aws:sns:eu-west-2:123456789012:sms-events',
        Message: '{"eventType":"TEXT_DELIVERED"}',
        Timestamp: '2026-11-02T09:31:00.000Z',
        SignatureVersion: '2',
      };
      expect(snsStringToSign(base)).toBe(
        'Message\n{"eventType":"TEXT_DELIVERED"}\nMessageId\nm-1\nTimestamp\n2026-11-02T09:31:00.000Z\nTopicArn\narn:aws:sns:eu-west-2:123456789012:sms-events\nType\nNotification\n',
      );
      expect(snsStringToSign({ ...base, Subject: 'Hi' })).toContain('MessageId\nm-1\nSubject\nHi\nTimestamp\n');
      expect(
        snsStringToSign({ ...base, Type: 'SubscriptionConfirmation', SubscribeURL: 'https://s', Token: 'tok' }),
      ).toBe(
        'Message\n{"eventType":"TEXT_DELIVERED"}\nMessageId\nm-1\nSubscribeURL\nhttps://s\nTimestamp\n2026-11-02T09:31:00.000Z\nToken\ntok\nTopicArn\narn:aws:sns:eu-west-2:123456789012:sms-events\nType\nSubscriptionConfirmation\n',
      );
      expect(snsStringToSign({ ...base, Type: 'SubscriptionConfirmation' })).toBeNull();
      expect(snsStringToSign({ ...base, Type: 'Other' })).toBeNull();
    });

    it('AWS: signed SNS notifications carry SMS events; delivered, final TEXT_SUCCESSFUL and blocked map to success and failed', async () => {
      const m = await sentMessage(t, 'aws-sms', 'aws-1');
      const url = pathOf(providerReportUrl(t.deps.config, 'aws-sms'));
      const { post, notification } = snsRoutes(t, url);
      const event = {
        eventType: 'TEXT_DELIVERED',
        eventVersion: '1.0',
        eventTimestamp: 1762075860000,
        isFinal: true,
        originationPhoneNumber: 'MedLocker',
        destinationPhoneNumber: '+447700900123',
        messageId: 'aws-1',
        messageType: 'TRANSACTIONAL',
        messageStatus: 'DELIVERED',
        messageStatusDescription: 'Message has been accepted by phone',
        context: { reference: m.id },
        totalMessageParts: 1,
      };
      const res = await post(notification(event));
      expect(res.status).toBe(200);
      expect(await messageRow(t, m.id)).toMatchObject({ status: 'success', provider_status: 'TEXT_DELIVERED' });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('success');

      const blocked = await sentMessage(t, 'aws-sms', 'aws-2', { orderId: m.orderId, businessId: m.businessId });
      await post(
        notification({
          ...event,
          eventType: 'TEXT_BLOCKED',
          messageId: 'aws-2',
          messageStatus: 'BLOCKED',
          messageStatusDescription: 'Destination phone number blocked',
          context: { reference: blocked.id },
        }),
        '1',
      );
      expect(await messageRow(t, blocked.id)).toMatchObject({
        status: 'failed',
        last_error: 'Destination phone number blocked',
      });

      // TEXT_SUCCESSFUL (accepted by the carrier) is news while more may come, and the outcome when final.
      const accepted = await sentMessage(t, 'aws-sms', 'aws-3', { orderId: m.orderId, businessId: m.businessId });
      const successful = {
        ...event,
        eventType: 'TEXT_SUCCESSFUL',
        messageId: 'aws-3',
        context: { reference: accepted.id },
      };
      await post(notification({ ...successful, isFinal: false }));
      expect(await messageRow(t, accepted.id)).toMatchObject({ status: 'pending', provider_status: 'TEXT_SUCCESSFUL' });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('pending');
      await post(notification(successful));
      expect((await messageRow(t, accepted.id)).status).toBe('success');
      expect((await events(t, m.orderId)).map((e) => e.message)).toEqual([
        'SMS delivered',
        'SMS failed: Destination phone number blocked',
        'SMS delivered',
      ]);

      expect((await post(notification(event), '2', url.replace(/[^/]+$/, 'forged'))).status).toBe(401);
      expect((await post({ ...notification({}), Message: 'not json' })).status).toBe(400);
      expect((await post(notification({ ...event, messageId: 'aws-unknown' }))).status).toBe(200);
    });

    it('AWS: refuses an SNS message without SNS’s valid signature (401) and changes nothing', async () => {
      const m = await sentMessage(t, 'aws-sms', 'aws-9');
      const url = pathOf(providerReportUrl(t.deps.config, 'aws-sms'));
      const { post, send, notification } = snsRoutes(t, url);
      const signed = signSns(
        notification({ eventType: 'TEXT_DELIVERED', isFinal: true, messageId: 'aws-9', context: { reference: m.id } }),
      );
      // Another key's signature; a changed message; no signature; a certificate not on SNS's hosts or
      // not a .pem; an unknown signature version.
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      expect(
        (await post(notification({ eventType: 'TEXT_DELIVERED', messageId: 'aws-9' }), '2', url, other)).status,
      ).toBe(401);
      expect(
        (await send({ ...signed, Message: String(signed.Message).replace('TEXT_DELIVERED', 'TEXT_BLOCKED') })).status,
      ).toBe(401);
      const { Signature: _s, ...unsigned } = signed;
      expect((await send(unsigned)).status).toBe(401);
      expect(
        (await send({ ...signed, SigningCertURL: 'https://sns.eu-west-2.amazonaws.com.evil.example/c.pem' })).status,
      ).toBe(401);
      expect((await send({ ...signed, SigningCertURL: 'https://sns.eu-west-2.amazonaws.com/c.txt' })).status).toBe(401);
      expect((await send({ ...signed, SignatureVersion: '3' })).status).toBe(401);
      // Through the app as deployed, an unsigned report is refused before any certificate is fetched.
      expect((await postJson(t, url, unsigned)).status).toBe(401);
      expect((await messageRow(t, m.id)).status).toBe('pending');
      // The certificate cannot be fetched: 502, so SNS tries again later.
      const down = messagingReportRoutes(t.deps, {
        snsSigningKeys: async () => {
          throw new Error('connection refused');
        },
      });
      const res = await down.handle(
        new Request(`${TEST_ORIGIN}${url}`, { method: 'POST', body: JSON.stringify(signed) }),
      );
      expect(res.status).toBe(502);
      expect((await send(signed)).status).toBe(200);
      expect((await messageRow(t, m.id)).status).toBe('success');
    });

    it('AWS: confirms a signed SNS subscription only at an SNS address', async () => {
      const url = pathOf(providerReportUrl(t.deps.config, 'aws-sms'));
      const { post, send, visited } = snsRoutes(t, url);
      const confirmation = (subscribeUrl: string) =>
        signSns({
          Type: 'SubscriptionConfirmation',
          MessageId: Bun.randomUUIDv7(),
          Token: 'tok',
          TopicArn: 'arn:aws:sns:eu-west-2:123456789012:sms-events',
          Message: 'You have chosen to subscribe to the topic. To confirm the subscription, visit the SubscribeURL.',
          SubscribeURL: subscribeUrl,
          Timestamp: '2026-11-02T09:31:00.000Z',
        });
      const sns = 'https://sns.eu-west-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=tok';
      expect((await post(confirmation(sns))).status).toBe(200);
      expect((await post(confirmation('https://evil.example/?sns.eu-west-2.amazonaws.com'))).status).toBe(400);
      expect((await post(confirmation('http://sns.eu-west-2.amazonaws.com/'))).status).toBe(400);
      // Unsigned: not visited.
      const { Signature: _s, ...unsigned } = confirmation(`${sns}&again=1`);
      expect((await send(unsigned)).status).toBe(401);
      expect(visited).toEqual([sns]);
    });

    it('WhatsApp: signed status webhooks update the message; a bad or missing signature is 401', async () => {
      const m = await sentMessage(t, 'whatsapp', 'wamid.1', { channel: 'whatsapp' });
      const url = pathOf(whatsAppReportUrl(t.deps.config));
      const webhook = (status: Record<string, unknown>) =>
        JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '1234',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { phone_number_id: '1065' },
                    statuses: [{ recipient_id: '447700900123', timestamp: '1762075860', ...status }],
                  },
                },
              ],
            },
          ],
        });
      const sign = (body: string, secret = APP_SECRET) =>
        `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      const post = (body: string, signature?: string) =>
        t.raw(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
          body,
        });

      const delivered = webhook({ id: 'wamid.1', status: 'delivered', biz_opaque_callback_data: m.id });
      expect((await post(delivered)).status).toBe(401);
      expect((await post(delivered, sign(delivered, 'another-secret'))).status).toBe(401);
      expect((await post(delivered, sign(`${delivered} `))).status).toBe(401);
      expect((await messageRow(t, m.id)).status).toBe('pending');

      const res = await post(delivered, sign(delivered));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ outcomes: ['applied'] });
      expect(await messageRow(t, m.id)).toMatchObject({ status: 'success', provider_status: 'delivered' });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('success');
      expect(await events(t, m.orderId)).toEqual([
        { code: 'MESSAGE_DELIVERED', message: 'WhatsApp message delivered' },
      ]);

      const f = await sentMessage(t, 'whatsapp', 'wamid.2', {
        channel: 'whatsapp',
        orderId: m.orderId,
        businessId: m.businessId,
      });
      const failed = webhook({
        id: 'wamid.2',
        status: 'failed',
        errors: [
          {
            code: 131026,
            title: 'Message undeliverable',
            error_data: { details: 'Receiver is incapable of receiving this message' },
          },
        ],
      });
      await post(failed, sign(failed));
      expect(await messageRow(t, f.id)).toMatchObject({
        status: 'failed',
        last_error: 'Receiver is incapable of receiving this message',
      });

      const unknown = webhook({ id: 'wamid.nobody', status: 'read' });
      const r = await post(unknown, sign(unknown));
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ outcomes: ['unknown'] });
    });

    it('WhatsApp: answers Meta’s verify handshake only with the verify token', async () => {
      const url = pathOf(whatsAppReportUrl(t.deps.config));
      const ok = await t.raw(`${url}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('1158201444');
      expect((await t.raw(`${url}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(403);
      expect((await t.raw(`${url}?hub.challenge=1`)).status).toBe(403);
    });

    it('email: a report sets the order’s lastEmailStatus with the address, words and template', async () => {
      const m = await sentMessage(t, 'email', '<x@messages.medlocker>', { channel: 'email' });
      t.advance(5000);
      const outcome = await applyDeliveryReport(t.deps, messagePort(t.deps), {
        provider: 'email',
        providerMessageId: '<x@messages.medlocker>',
        providerStatus: 'bounced',
        status: 'failed',
        reason: '550 No such user',
        details: { smtp: 550 },
      });
      expect(outcome).toBe('applied');
      expect(json((await orderRow(t, m.orderId)).last_email_status)).toEqual({
        address: 'ada@example.com',
        providerStatus: 'bounced',
        providerDetails: '550 No such user',
        status: 'failed',
        templateKey: 'orderReady',
        timestamp: t.deps.now(),
      });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBeNull();
      expect(await events(t, m.orderId)).toEqual([
        { code: 'MESSAGE_FAILED', message: 'Email failed: 550 No such user' },
      ]);
    });
  },
  () => ({
    logger: createLogger('info', (line) => {
      logged.push(JSON.parse(line));
    }),
  }),
  { WHATSAPP_APP_SECRET: APP_SECRET, WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN },
);
