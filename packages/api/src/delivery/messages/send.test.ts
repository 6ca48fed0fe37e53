// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin} and ${portal} are template placeholders.
import { afterAll, afterEach, expect, it } from 'bun:test';
import { messagePort } from '../../areas/messages/index.ts';
import { json } from '../../areas/orders/mapping-repository.ts';
import { jobHandlers, jobSchedules } from '../../job-handlers.ts';
import { createRunner } from '../../jobs/runner.ts';
import { localMailboxOf } from '../../mail/mailer.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, type TestLocker, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { configuredGateways } from './gateways/index.ts';
import { messageReportUrl } from './report-urls.ts';
import { maskRecipient, messageSendHandler, type SendOptions } from './send.ts';

/** A local The SMS Works: records each send and answers what the test queued (else 200 with a new id). */
const seen: { authorization: string | null; body: Record<string, string> }[] = [];
const answers: { status: number; body: unknown }[] = [];
const smsWorks = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    seen.push({ authorization: req.headers.get('authorization'), body: (await req.json()) as Record<string, string> });
    const answer = answers.shift() ?? { status: 200, body: { messageid: `sw-${seen.length}`, status: 'SENT' } };
    return Response.json(answer.body, { status: answer.status });
  },
});
afterEach(() => {
  seen.length = 0;
  answers.length = 0;
});
afterAll(() => smsWorks.stop(true));

const env = { SMSWORKS_JWT: 'JWT test-token', SMSWORKS_API_URL: `http://127.0.0.1:${smsWorks.port}` };

describeApi(
  'sending messages',
  (t) => {
    let n = 0;
    /** A runner of message.send jobs on the test clock; retries come 0.5 s (test time) after a failure. */
    const runnerOf = (extra: Partial<SendOptions> = {}) =>
      createRunner({
        db: t.db,
        logger: t.deps.logger,
        now: t.deps.now,
        handlers: {
          'message.send': messageSendHandler(t.deps, {
            gateways: configuredGateways(t.deps.config, t.deps.mailer),
            areas: messagePort(t.deps),
            ...extra,
          }),
        },
        baseDelayMs: 1_000,
        random: () => 0,
      });
    const drain = async (runner: ReturnType<typeof runnerOf>) => {
      await runner.tick();
      await runner.idle();
    };
    const useSmsWorks = () =>
      t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId: 'b1', settings: { smsGateway: 'thesmsworks' } },
        asSupport,
      );
    /** A patient's order loaded into the locker: its orderReady message is queued. */
    const loadOrder = async (locker: TestLocker, options: { suppressed?: boolean } = {}) => {
      n += 1;
      const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(n) }, asSupport);
      const order = await t.call(
        'orders',
        'create',
        { businessId: 'b1', patientId: patient.body.patient.id, barcode: `RX-${n}` },
        asSupport,
      );
      expect(order.status).toBe(200);
      const id = order.body.order.id as string;
      // Nothing in the contract sets it yet (integration partners will): set as their orders arrive.
      if (options.suppressed)
        await t.db.updateTable('orders').set({ messages_suppressed: true }).where('id', '=', id).execute();
      const loaded = await locker.call('BagLoaded', {
        eventId: `ev-${n}`,
        seq: n,
        created: t.deps.now(),
        barcode: `RX-${n}`,
        location: `A${n}`,
      });
      expect(loaded[2]).toMatchObject({ orderId: id });
      return id;
    };
    const messages = (orderId: string) =>
      t.db.selectFrom('message_outbox').selectAll().where('order_id', '=', orderId).execute();
    const orderOf = async (id: string) => (await t.call('orders', 'get', { id }, asSupport)).body.order;
    const events = async (id: string) =>
      (await t.call('orders', 'listEvents', { orderId: id }, asSupport)).body.events.map(
        (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
      );
    const jobsOf = (messageId: string) =>
      t.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', messageId).execute();

    it('sends each message once through the business’s gateway, with the PIN and a working short link', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        await t.call(
          'businessSettings',
          'updateBusinessSmsTemplates',
          {
            businessId: 'b1',
            templates: { orderReady: 'Ready at ${machineName}. PIN ${pin}, by ${expires}. Pay: ${portal}' },
          },
          asSupport,
        );
        const orderId = await loadOrder(locker);
        const [queued] = await messages(orderId);
        expect(queued?.body).toContain('${pin}');
        expect(await jobsOf(queued?.id as string)).toHaveLength(1);

        const runner = runnerOf();
        await drain(runner);
        await drain(runner);
        expect(seen).toHaveLength(1);
        const pin = (await t.call('orders', 'setRevealPinReason', { id: orderId, reason: 'test' }, asSupport)).body
          .pin as string;
        const sent = seen[0]?.body ?? {};
        expect(seen[0]?.authorization).toBe('JWT test-token');
        expect(sent).toMatchObject({ destination: '447700900001', tag: queued?.id, sender: 'Pharmacy b1' });
        expect(sent.content).toContain(`PIN ${pin.slice(0, 4)} ${pin.slice(4)}`);
        expect(sent.deliveryreporturl).toContain(`/hooks/messages/smsworks/${queued?.id}/`);
        const link = /Pay: (\S+)$/.exec(sent.content ?? '')?.[1] ?? '';
        const visit = await t.raw(new URL(link).pathname, { redirect: 'manual' });
        expect(visit.status).toBe(302);
        expect(visit.headers.get('location')).toContain(`/p/${orderId}`);

        const [row] = await messages(orderId);
        // The PIN never reaches the outbox: the stored body still has the placeholder.
        expect(row).toMatchObject({ provider: 'smsworks', provider_message_id: 'sw-1', status: 'pending' });
        expect(row?.body).toContain('${pin}');
        expect(row?.sent_at).toBe(t.deps.now());
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'pending' });
        expect(await events(orderId)).toContain('MESSAGE_SENT: SMS sent to 07••• •••001');
        expect((await jobsOf(row?.id as string))[0]?.status).toBe('done');
      });
    });

    it('retries a 429 and sends once after it', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        answers.push({ status: 429, body: { message: 'Too many requests' } });
        const orderId = await loadOrder(locker);
        const runner = runnerOf();
        await drain(runner);
        expect(seen).toHaveLength(1);
        expect(await messages(orderId)).toMatchObject([
          { status: 'pending', sent_at: null, last_error: 'Too many requests' },
        ]);
        t.advance(1_000);
        await drain(runner);
        expect(seen).toHaveLength(2);
        expect(await messages(orderId)).toMatchObject([{ provider_message_id: 'sw-2', status: 'pending' }]);
        t.advance(60_000);
        await drain(runner);
        expect(seen).toHaveLength(2);
      });
    });

    it('fails a message at its last retry, with the reason on the order’s timeline; a staff retry of the dead job sends it', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        answers.push({ status: 503, body: { message: 'Service unavailable' } });
        answers.push({ status: 429, body: { message: 'Too many requests' } });
        const orderId = await loadOrder(locker);
        const [queued] = await messages(orderId);
        const id = queued?.id as string;
        await t.db.updateTable('jobs').set({ max_attempts: 2 }).where('dedupe_key', '=', id).execute();
        const runner = runnerOf();
        await drain(runner);
        // The first failure is retried: no outcome yet, nothing on the timeline.
        expect(await messages(orderId)).toMatchObject([{ status: 'pending', last_error: 'Service unavailable' }]);
        expect((await events(orderId)).filter((e: string) => e.startsWith('MESSAGE_'))).toEqual([]);
        t.advance(1_000);
        await drain(runner);
        expect(seen).toHaveLength(2);
        const reason = 'Too many requests (gave up after 2 attempts)';
        expect(await messages(orderId)).toMatchObject([
          { status: 'failed', provider_status: 'GAVE_UP', sent_at: null, last_error: reason },
        ]);
        const [job] = await jobsOf(id);
        expect(job?.status).toBe('dead');
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'failed' });
        expect(await events(orderId)).toContain(`MESSAGE_FAILED: SMS failed: ${reason}`);

        // Support staff retry the dead job (the provider is back): it is sent, once.
        expect((await t.call('jobs', 'retryJob', { id: job?.id }, asSupport)).status).toBe(200);
        await drain(runner);
        expect(seen).toHaveLength(3);
        expect(await messages(orderId)).toMatchObject([{ status: 'pending', provider_message_id: 'sw-3' }]);
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'pending' });
        expect((await events(orderId)).at(-1)).toMatch(/^MESSAGE_SENT: SMS sent to /);
        t.advance(60_000);
        await drain(runner);
        expect(seen).toHaveLength(3);
      });
    });

    it('fails a message the provider refuses, with its reason on the order, and does not retry it', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        answers.push({ status: 400, body: { message: 'Invalid destination' } });
        const orderId = await loadOrder(locker);
        const runner = runnerOf();
        await drain(runner);
        const [row] = await messages(orderId);
        expect(row).toMatchObject({ status: 'failed', last_error: 'Invalid destination' });
        expect((await jobsOf(row?.id as string))[0]?.status).toBe('dead');
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'failed' });
        expect(await events(orderId)).toContain('MESSAGE_FAILED: SMS failed: Invalid destination');
        t.advance(60_000);
        await drain(runner);
        expect(seen).toHaveLength(1);

        // The provider took nothing: once the cause is mended, a staff retry of the dead job sends it, once.
        const [job] = await jobsOf(row?.id as string);
        expect((await t.call('jobs', 'retryJob', { id: job?.id }, asSupport)).status).toBe(200);
        await drain(runner);
        expect(seen).toHaveLength(2);
        expect(await messages(orderId)).toMatchObject([{ status: 'pending', provider_message_id: 'sw-2' }]);
        expect((await events(orderId)).at(-1)).toMatch(/^MESSAGE_SENT: SMS sent to /);
        t.advance(60_000);
        await drain(runner);
        expect(seen).toHaveLength(2);
      });
    });

    it('does not send again on a staff retry when the provider answered 2xx but its answer could not be read', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        answers.push({ status: 200, body: { status: 'SENT' } });
        const orderId = await loadOrder(locker);
        const runner = runnerOf();
        await drain(runner);
        const [row] = await messages(orderId);
        expect(row).toMatchObject({ status: 'failed', last_error: 'the answer had no messageid' });
        const [job] = await jobsOf(row?.id as string);
        expect(job?.status).toBe('dead');
        // It may well have gone: a retry must not send the PIN a second time.
        expect((await t.call('jobs', 'retryJob', { id: job?.id }, asSupport)).status).toBe(200);
        await drain(runner);
        expect(seen).toHaveLength(1);
      });
    });

    it('does not send again when the worker died after the gateway answered', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        const orderId = await loadOrder(locker);
        const runner = runnerOf({
          afterSend: () => {
            throw new Error('worker killed');
          },
        });
        await drain(runner);
        expect(seen).toHaveLength(1);
        t.advance(1_000);
        await drain(runner);
        expect(seen).toHaveLength(1);
        const [row] = await messages(orderId);
        expect(row).toMatchObject({ provider: 'smsworks', provider_status: 'UNCONFIRMED', status: 'pending' });
        expect((await jobsOf(row?.id as string))[0]?.status).toBe('done');
        expect((await events(orderId)).filter((e: string) => e.startsWith('MESSAGE_SENT'))).toHaveLength(1);

        // Its delivery report, addressed to our message id, still finds it and adopts the provider's id.
        const url = new URL(messageReportUrl(t.deps.config, 'smsworks', row?.id as string) ?? '');
        const report = await t.raw(url.pathname, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ messageid: 'sw-1', status: 'DELIVERED' }),
        });
        expect(await report.json()).toEqual({ outcome: 'applied' });
        expect(await messages(orderId)).toMatchObject([{ provider_message_id: 'sw-1', status: 'success' }]);
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'success' });
      });
    });

    it('sends nothing for an order whose messages are suppressed, and says so on its timeline', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await useSmsWorks();
        const orderId = await loadOrder(locker, { suppressed: true });
        expect(await messages(orderId)).toEqual([]);
        await drain(runnerOf());
        expect(seen).toHaveLength(0);
        expect(await events(orderId)).toContain(
          'MESSAGE_SUPPRESSED: No message sent: messages are suppressed for this order',
        );
      });
    });

    it('emails instead when the business sends only email where it can', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { sendOnlyEmailIfPossible: true } },
          asSupport,
        );
        const orderId = await loadOrder(locker);
        await drain(runnerOf());
        expect(seen).toHaveLength(0);
        expect(await messages(orderId)).toMatchObject([{ channel: 'email', provider: 'email', status: 'success' }]);
        const order = await orderOf(orderId);
        expect(order.lastEmailStatus).toMatchObject({ status: 'success', address: `patient${n}@example.com` });
      });
    });

    it('records a message through the local gateway when the chosen provider has no credentials (outside production)', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        // The default gateway is AWS, which this test process has no credentials for.
        const orderId = await loadOrder(locker);
        await drain(runnerOf());
        expect(seen).toHaveLength(0);
        expect(await messages(orderId)).toMatchObject([{ provider: 'local', status: 'success' }]);
        expect(
          json(
            (
              await t.db
                .selectFrom('orders')
                .select('last_notification_status')
                .where('id', '=', orderId)
                .executeTakeFirstOrThrow()
            ).last_notification_status,
          ),
        ).toBe('success');
        expect(await events(orderId)).toContain(
          `MESSAGE_SENT: SMS sent to 07••• •••${String(n).padStart(3, '0')} (local gateway: not really sent)`,
        );
      });
    });

    it('registers the sender, the order sweeps and the 07:00 digest with the runner', () => {
      expect(Object.keys(jobHandlers(t.deps))).toEqual([
        'message.send',
        'message.reconcile',
        'orders.recordExpired',
        'orders.expiryReminders',
        'integration.prune',
        'webhooks.dispatch',
        'webhooks.sweep',
        'stats.monthly',
        'notifications.dailyDigest',
        'housekeeping.idleBuckets',
        'accounts.disableInactive',
        'retention.apply',
        'notifications.digest',
        'reports.monthlyEmails',
        'secrets.reseal',
        'reports.monthlyEmail',
        'patients.searchIndex',
        'alarms.escalate',
      ]);
      expect(jobSchedules).toEqual([
        { name: 'orders.recordExpired', pattern: '* * * * *', job: { type: 'orders.recordExpired', payload: {} } },
        {
          name: 'orders.expiryReminders',
          pattern: '*/5 * * * *',
          job: { type: 'orders.expiryReminders', payload: {} },
        },
        { name: 'webhooks.sweep', pattern: '* * * * *', job: { type: 'webhooks.sweep', payload: {} } },
        {
          name: 'housekeeping.idleBuckets',
          pattern: '47 * * * *',
          job: { type: 'housekeeping.idleBuckets', payload: {} },
        },
        {
          name: 'notifications.dailyDigest',
          pattern: '0 7 * * *',
          job: { type: 'notifications.dailyDigest', payload: {} },
        },
        {
          name: 'accounts.disableInactive',
          pattern: '23 3 * * *',
          job: { type: 'accounts.disableInactive', payload: {} },
        },
        { name: 'retention.apply', pattern: '41 2 * * *', job: { type: 'retention.apply', payload: {} } },
        { name: 'integration.prune', pattern: '17 * * * *', job: { type: 'integration.prune', payload: {} } },
        { name: 'patients.searchIndex', pattern: '*/10 * * * *', job: { type: 'patients.searchIndex', payload: {} } },
        { name: 'stats.monthly', pattern: '*/5 * * * *', job: { type: 'stats.monthly', payload: {} } },
        { name: 'reports.monthlyEmails', pattern: '0 6 1 * *', job: { type: 'reports.monthlyEmails', payload: {} } },
      ]);
    });
  },
  withTestAuth,
  env,
);

it('masks recipients on the timeline', () => {
  expect(maskRecipient('+447700900123')).toBe('07••• •••123');
  expect(maskRecipient('ada@example.com')).toBe('a•••@example.com');
});

describeApi(
  'sending messages in production',
  (t) => {
    it('fails a message at once, with the reason on the order, when its provider has no credentials', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(1) }, asSupport);
        const order = await t.call(
          'orders',
          'create',
          { businessId: 'b1', patientId: patient.body.patient.id, barcode: 'RX-P1' },
          asSupport,
        );
        const orderId = order.body.order.id as string;
        await locker.call('BagLoaded', {
          eventId: 'ev-p1',
          seq: 1,
          created: t.deps.now(),
          barcode: 'RX-P1',
          location: 'A1',
        });
        const runner = createRunner({
          db: t.db,
          logger: t.deps.logger,
          now: t.deps.now,
          handlers: { 'message.send': messageSendHandler(t.deps, { gateways: {}, areas: messagePort(t.deps) }) },
        });
        await runner.tick();
        await runner.idle();
        const rows = await t.db.selectFrom('message_outbox').selectAll().where('order_id', '=', orderId).execute();
        expect(rows).toMatchObject([
          { provider: 'aws-sms', status: 'failed', last_error: 'No aws-sms gateway is configured (AWS_REGION)' },
        ]);
        expect((await t.call('orders', 'get', { id: orderId }, asSupport)).body.order.lastNotificationStatus).toBe(
          'failed',
        );
      });
    });

    it('fails a patient email at once without SMTP_URL, rather than leaving it (and its PIN) in the local mailbox as sent', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { sendOnlyEmailIfPossible: true } },
          asSupport,
        );
        const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(2) }, asSupport);
        const order = await t.call(
          'orders',
          'create',
          { businessId: 'b1', patientId: patient.body.patient.id, barcode: 'RX-P2' },
          asSupport,
        );
        const orderId = order.body.order.id as string;
        await locker.call('BagLoaded', {
          eventId: 'ev-p2',
          seq: 2,
          created: t.deps.now(),
          barcode: 'RX-P2',
          location: 'A2',
        });
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
        const rows = await t.db.selectFrom('message_outbox').selectAll().where('order_id', '=', orderId).execute();
        expect(rows).toMatchObject([
          { channel: 'email', status: 'failed', last_error: 'No email gateway is configured (SMTP_URL)' },
        ]);
        expect(localMailboxOf(t.deps.mailer)?.messages ?? []).toEqual([]);
      });
    });
  },
  withTestAuth,
  {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    SMTP_URL: 'smtp://mail.example.test:587',
    PUBLIC_URL: 'https://lockers.example.test',
  },
);
