import { expect, it } from 'bun:test';
import { createHmac } from 'node:crypto';
import { insertBusiness, testPatient } from '../areas/patients/test-helpers.ts';
import { createLogger } from '../http/logger.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../testing.ts';
import { messagingReportRoutes } from './report-routes.ts';
import { messageReportUrl, providerReportUrl, reportUrlFor, whatsAppReportUrl } from './report-urls.ts';
import { applyDeliveryReport } from './reports.ts';

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

import { json } from '../areas/orders/repository.ts';

/** A report URL's path and query, for `t.raw`. */
const pathOf = (url: string | undefined) => {
  if (!url) throw new Error('no report URL: PUBLIC_URL is unset');
  const u = new URL(url);
  return u.pathname + u.search;
};

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
      const report = { messageid: 'sw-1', status: 'DELIVERED', destination: '447700900123', tag: m.id };
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
        `${okUrl}?id=mb-1&reference=${ok.id}&recipient=447700900123&status=delivered&statusDatetime=2026-11-02T09:31:00%2B00:00`,
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

      expect((await t.raw(`${badUrl.replace(/[^/]+$/, 'nope')}?id=mb-2&status=delivered`)).status).toBe(401);
      expect((await t.raw(`${badUrl}?status=delivered`)).status).toBe(400);
    });

    it('AWS: SNS notifications carry SMS events; delivered and blocked map to success and failed', async () => {
      const m = await sentMessage(t, 'aws-sms', 'aws-1');
      const url = pathOf(providerReportUrl(t.deps.config, 'aws-sms'));
      const notification = (event: Record<string, unknown>) => ({
        Type: 'Notification',
        MessageId: Bun.randomUUIDv7(),
        TopicArn: 'arn:aws:sns:eu-west-2:123456789012:sms-events',
        Message: JSON.stringify(event),
        Timestamp: '2026-11-02T09:31:00.000Z',
        SignatureVersion: '1',
      });
      const event = {
        eventType: 'TEXT_DELIVERED',
        eventVersion: '1.0',
        messageId: 'aws-1',
        destinationPhoneNumber: '+447700900123',
        messageStatus: 'DELIVERED',
        messageStatusDescription: 'Message has been accepted by phone',
        context: { reference: m.id },
      };
      // SNS posts text/plain.
      const res = await t.raw(url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
        body: JSON.stringify(notification(event)),
      });
      expect(res.status).toBe(200);
      expect(await messageRow(t, m.id)).toMatchObject({ status: 'success', provider_status: 'TEXT_DELIVERED' });
      expect(json((await orderRow(t, m.orderId)).last_notification_status)).toBe('success');

      const blocked = await sentMessage(t, 'aws-sms', 'aws-2', { orderId: m.orderId, businessId: m.businessId });
      await postJson(
        t,
        url,
        notification({
          ...event,
          eventType: 'TEXT_BLOCKED',
          messageId: 'aws-2',
          messageStatus: 'BLOCKED',
          messageStatusDescription: 'Destination phone number blocked',
          context: { reference: blocked.id },
        }),
      );
      expect(await messageRow(t, blocked.id)).toMatchObject({
        status: 'failed',
        last_error: 'Destination phone number blocked',
      });
      expect((await events(t, m.orderId)).map((e) => e.message)).toEqual([
        'SMS delivered',
        'SMS failed: Destination phone number blocked',
      ]);

      expect((await postJson(t, url.replace(/[^/]+$/, 'forged'), notification(event))).status).toBe(401);
      expect((await postJson(t, url, { Type: 'Notification', Message: 'not json' })).status).toBe(400);
      expect((await postJson(t, url, notification({ ...event, messageId: 'aws-unknown' }))).status).toBe(200);
    });

    it('AWS: confirms an SNS subscription only at an SNS address', async () => {
      const visited: string[] = [];
      const routes = messagingReportRoutes(t.deps, {
        confirmSnsSubscription: async (u) => {
          visited.push(u);
        },
      });
      const url = `${TEST_ORIGIN}${pathOf(providerReportUrl(t.deps.config, 'aws-sms'))}`;
      const confirmation = (subscribeUrl: string) =>
        routes.handle(
          new Request(url, {
            method: 'POST',
            headers: { 'content-type': 'text/plain; charset=UTF-8' },
            body: JSON.stringify({
              Type: 'SubscriptionConfirmation',
              TopicArn: 'arn:aws:sns:eu-west-2:123456789012:sms-events',
              Token: 'tok',
              SubscribeURL: subscribeUrl,
            }),
          }),
        );
      const sns = 'https://sns.eu-west-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=tok';
      expect((await confirmation(sns)).status).toBe(200);
      expect((await confirmation('https://evil.example/?sns.eu-west-2.amazonaws.com')).status).toBe(400);
      expect((await confirmation('http://sns.eu-west-2.amazonaws.com/')).status).toBe(400);
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
      const outcome = await applyDeliveryReport(t.deps, {
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
