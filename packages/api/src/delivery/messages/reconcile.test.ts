import { afterAll, afterEach, expect, it } from 'bun:test';
import { type AddressInfo, createServer } from 'node:net';
import { messagePort } from '../../areas/messages/index.ts';
import { createRunner } from '../../jobs/runner.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, type TestLocker, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { configuredGateways, smsWorksGateway } from './gateways/index.ts';
import { messageReconcileHandler, reconcileMessage } from './reconcile.ts';
import { messageReportUrl } from './report-urls.ts';
import { messageSendHandler, type SendOptions, sendMessage } from './send.ts';

/**
 * A local The SMS Works: records each send it received and answers what the test queued (else 200 with
 * a new id); an answer may wait for the test to release it (a slow gateway).
 */
const seen: Record<string, string>[] = [];
const answers: { status: number; body: unknown; hold?: Promise<void> }[] = [];
const smsWorks = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    seen.push((await req.json()) as Record<string, string>);
    const answer = answers.shift() ?? { status: 200, body: { messageid: `sw-${seen.length}`, status: 'SENT' } };
    await answer.hold;
    return Response.json(answer.body, { status: answer.status });
  },
});
afterEach(() => {
  seen.length = 0;
  answers.length = 0;
});
afterAll(() => smsWorks.stop(true));

const GRACE_MS = 60_000;
const env = {
  SMSWORKS_JWT: 'JWT test-token',
  SMSWORKS_API_URL: `http://127.0.0.1:${smsWorks.port}`,
  MESSAGES_UNCONFIRMED_GRACE_SECONDS: String(GRACE_MS / 1000),
  MESSAGES_UNDELIVERED_ALERT_MINUTES: '5',
};

/** A worker dying at that point: the runner sees its attempt end in an error, as a lease running out would. */
const die = () => {
  throw new Error('worker killed');
};

describeApi(
  'unconfirmed messages reconciled by delivery reports',
  (t) => {
    let n = 0;
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
          'message.reconcile': messageReconcileHandler(t.deps, messagePort(t.deps)),
        },
        baseDelayMs: 1_000,
        random: () => 0,
      });
    /** Runs every due job, and those they queue for now, until none is left. */
    const drain = async (runner: ReturnType<typeof runnerOf>) => {
      for (let i = 0; i < 4; i++) {
        await runner.tick();
        await runner.idle();
      }
    };
    const loadOrder = async (locker: TestLocker) => {
      n += 1;
      await t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId: 'b1', settings: { smsGateway: 'thesmsworks' } },
        asSupport,
      );
      const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(n) }, asSupport);
      const order = await t.call(
        'orders',
        'create',
        { businessId: 'b1', patientId: patient.body.patient.id, barcode: `RX-${n}` },
        asSupport,
      );
      const id = order.body.order.id as string;
      await locker.call('BagLoaded', {
        eventId: `ev-${n}`,
        seq: n,
        created: t.deps.now(),
        barcode: `RX-${n}`,
        location: `A${n}`,
      });
      const [message] = await t.db.selectFrom('message_outbox').select('id').where('order_id', '=', id).execute();
      return { orderId: id, messageId: message?.id as string };
    };
    const messageOf = (id: string) =>
      t.db.selectFrom('message_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const orderOf = async (id: string) => (await t.call('orders', 'get', { id }, asSupport)).body.order;
    const events = async (id: string) =>
      (await t.call('orders', 'listEvents', { orderId: id }, asSupport)).body.events
        .map((e: { code: string; message: string }) => `${e.code}: ${e.message}`)
        .filter((e: string) => e.startsWith('MESSAGE_'));
    const reconcileJobs = (messageId: string) =>
      t.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', `message.reconcile:${messageId}`).execute();
    /** The SMS Works' delivery report for our message, as it POSTs it to the URL the send gave. */
    const report = async (messageId: string, messageid: string, status = 'SENT') => {
      const url = new URL(messageReportUrl(t.deps.config, 'smsworks', messageId) ?? '');
      const res = await t.raw(url.pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messageid, status, tag: messageId }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { outcome: string };
    };
    const resentWords = 'MESSAGE_RESENT: No word from The SMS Works about the SMS sent before a restart: sent again';

    it('sends again, once, a message whose worker died before the request reached the gateway', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { orderId, messageId } = await loadOrder(locker);
        let dying = true;
        const runner = runnerOf({ beforeSend: () => (dying ? die() : undefined) });
        await drain(runner);
        t.advance(1_000);
        await drain(runner);
        // Handed over, never received: unconfirmed, its check queued for after the grace period.
        expect(seen).toHaveLength(0);
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED', status: 'pending' });
        expect(await reconcileJobs(messageId)).toMatchObject([{ status: 'waiting', run_after: expect.anything() }]);
        dying = false;
        t.advance(GRACE_MS - 2_000);
        await drain(runner);
        expect(seen).toHaveLength(0);

        t.advance(2_000);
        await drain(runner);
        expect(seen).toHaveLength(1);
        // The same message: same reference, same report URL.
        expect(seen[0]).toMatchObject({ tag: messageId });
        expect(seen[0]?.deliveryreporturl).toContain(`/hooks/messages/smsworks/${messageId}/`);
        expect(await messageOf(messageId)).toMatchObject({
          provider_message_id: 'sw-1',
          provider_status: 'SENT',
          status: 'pending',
        });
        expect(await events(orderId)).toEqual([
          "MESSAGE_SENT: SMS sent to 07••• •••001 (the sender stopped before the provider's answer was recorded)",
          resentWords,
          'MESSAGE_SENT: SMS sent to 07••• •••001',
        ]);
        expect(await report(messageId, 'sw-1', 'DELIVERED')).toEqual({ outcome: 'applied' });
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'success' });

        t.advance(10 * GRACE_MS);
        await drain(runner);
        expect(seen).toHaveLength(1);
      });
    });

    it('records unconfirmed, not sent again at once, a message whose gateway dropped the connection after taking the request', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        // A The SMS Works that reads the request and then drops the connection without answering.
        const taken: Record<string, string>[] = [];
        let tookIt: () => void = () => {};
        const took = new Promise<void>((resolve) => {
          tookIt = resolve;
        });
        const dropper = Bun.serve({
          port: 0,
          hostname: '127.0.0.1',
          async fetch(req) {
            taken.push((await req.json()) as Record<string, string>);
            tookIt();
            return new Promise<Response>(() => {});
          },
        });
        const gateway = smsWorksGateway({ jwt: 'JWT test-token', apiUrl: `http://127.0.0.1:${dropper.port}` });
        const { orderId, messageId } = await loadOrder(locker);
        const runner = runnerOf({ gateways: { smsworks: gateway } });
        const ran = drain(runner);
        await took;
        dropper.stop(true);
        await ran;
        expect(taken).toHaveLength(1);
        t.advance(5_000);
        await drain(runnerOf({ gateways: { smsworks: gateway } }));
        // Not retried blindly: unconfirmed, its check queued; the report of the provider confirms it.
        expect(taken).toHaveLength(1);
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED', status: 'pending' });
        expect(await reconcileJobs(messageId)).toMatchObject([{ status: 'waiting' }]);
        expect(await report(messageId, 'sw-dropped', 'DELIVERED')).toEqual({ outcome: 'applied' });
        t.advance(GRACE_MS);
        await drain(runnerOf());
        expect(seen).toHaveLength(0);
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'success' });
      });
    });

    it('does not send again a message the gateway accepted: its report adopts the id before the check', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { orderId, messageId } = await loadOrder(locker);
        const runner = runnerOf({ afterSend: die });
        await drain(runner);
        t.advance(1_000);
        await drain(runner);
        expect(seen).toHaveLength(1);
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED', provider_message_id: null });

        expect(await report(messageId, 'sw-1')).toEqual({ outcome: 'applied' });
        t.advance(GRACE_MS);
        await drain(runner);
        expect(seen).toHaveLength(1);
        expect(await messageOf(messageId)).toMatchObject({ provider_message_id: 'sw-1', provider_status: 'SENT' });
        expect((await reconcileJobs(messageId))[0]?.status).toBe('done');
        expect(await events(orderId)).not.toContain(resentWords);
      });
    });

    it('sends nothing more when the first send’s report comes after the check decided to send again', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { messageId } = await loadOrder(locker);
        const runner = runnerOf({ afterSend: die });
        await drain(runner);
        t.advance(1_000);
        await drain(runner);
        expect(seen).toHaveLength(1);
        t.advance(GRACE_MS);
        // The check runs (no report yet): the message is queued to go again…
        expect(await reconcileMessage(t.deps, messagePort(t.deps), messageId)).toBe('resent');
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'RESEND', sent_at: null });
        // …and the first send's report arrives before the resend is handed over: it finds the message.
        expect(await report(messageId, 'sw-1')).toEqual({ outcome: 'applied' });
        await drain(runnerOf());
        expect(seen).toHaveLength(1);
        expect(await messageOf(messageId)).toMatchObject({ provider_message_id: 'sw-1', status: 'pending' });
        expect((await messageOf(messageId)).sent_at).not.toBeNull();
      });
    });

    it('keeps one outcome when a report and the check run at the same moment', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { messageId } = await loadOrder(locker);
        const runner = runnerOf({ afterSend: die });
        await drain(runner);
        t.advance(1_000);
        await drain(runner);
        t.advance(GRACE_MS);
        const [checked, reported] = await Promise.all([
          reconcileMessage(t.deps, messagePort(t.deps), messageId),
          report(messageId, 'sw-1', 'DELIVERED'),
        ]);
        expect(reported).toEqual({ outcome: 'applied' });
        expect(['confirmed', 'resent']).toContain(checked);
        await drain(runnerOf());
        expect(seen).toHaveLength(1);
        expect(await messageOf(messageId)).toMatchObject({ provider_message_id: 'sw-1', status: 'success' });
      });
    });

    it('records the resend’s own answer only if no report of the first send came while it was in flight', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { messageId } = await loadOrder(locker);
        await drain(runnerOf({ afterSend: die }));
        t.advance(1_000);
        await drain(runnerOf());
        t.advance(GRACE_MS);
        // The resend reaches the gateway (sw-2); before its answer is recorded the first send's report comes.
        const runner = runnerOf({
          afterSend: async () => {
            expect(await report(messageId, 'sw-1', 'DELIVERED')).toEqual({ outcome: 'applied' });
          },
        });
        await drain(runner);
        expect(seen).toHaveLength(2);
        expect(await messageOf(messageId)).toMatchObject({ provider_message_id: 'sw-1', status: 'success' });
      });
    });

    it('keeps sending a message whose connection the gateway cuts three times, and tells staff when it is late', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        // A The SMS Works that reads each request and cuts the connection without an answer, three
        // times; the fourth request gets its answer.
        let connections = 0;
        const cutter = createServer((socket) => {
          connections += 1;
          const mine = connections;
          socket.once('data', () => {
            if (mine <= 3) return void setTimeout(() => socket.destroy(), 5);
            const body = JSON.stringify({ messageid: 'sw-at-last', status: 'SENT' });
            socket.end(
              `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
            );
          });
        });
        await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
        const port = (cutter.address() as AddressInfo).port;
        try {
          const gateway = smsWorksGateway({ jwt: 'JWT test-token', apiUrl: `http://127.0.0.1:${port}` });
          const runner = runnerOf({ gateways: { smsworks: gateway } });
          const { orderId, messageId } = await loadOrder(locker);
          await drain(runner);
          expect(connections).toBe(1);
          // Each check finds no report and sends again; each next check waits twice as long.
          for (const [wait, sent] of [
            [GRACE_MS, 2],
            [2 * GRACE_MS, 3],
            [4 * GRACE_MS, 4],
          ] as const) {
            expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED', status: 'pending' });
            t.advance(wait - 1_000);
            await drain(runner);
            expect(connections).toBe(sent - 1);
            t.advance(1_000);
            await drain(runner);
            expect(connections).toBe(sent);
          }
          expect(await messageOf(messageId)).toMatchObject({
            provider_message_id: 'sw-at-last',
            status: 'pending',
            unconfirmed_sends: 3,
          });
          expect((await events(orderId)).filter((e: string) => e.startsWith('MESSAGE_RESENT'))).toEqual([
            resentWords,
            'MESSAGE_RESENT: No word from The SMS Works about the SMS after 2 sends: sent again',
            'MESSAGE_RESENT: No word from The SMS Works about the SMS after 3 sends: sent again',
          ]);
          // Seven minutes without word passed the alert's five: staff were told, once.
          expect(await events(orderId)).toContain(
            'MESSAGE_NOT_ARRIVED: SMS not confirmed by The SMS Works after 7 minutes; still being sent until it is or the order ends',
          );
          const told = await t.db.selectFrom('notifications').select(['title', 'body', 'level']).execute();
          expect(told).toHaveLength(1);
          expect(told[0]?.title).toStartWith('SMS not arrived: ');
          expect(told[0]?.body).toContain(
            'MedLocker keeps sending it until The SMS Works confirms it or the order ends',
          );
          expect(await report(messageId, 'sw-at-last', 'DELIVERED')).toEqual({ outcome: 'applied' });
          expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'success' });
          t.advance(10 * GRACE_MS);
          await drain(runner);
          expect(connections).toBe(4);
        } finally {
          cutter.close();
        }
      });
    });

    it('gives a message up after a day without word, and stops sending once its order has ended', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const runner = runnerOf({ beforeSend: die });
        const { orderId, messageId } = await loadOrder(locker);
        await drain(runner);
        for (let i = 0; i < 40 && (await messageOf(messageId)).status === 'pending'; i++) {
          t.advance(60 * 60_000);
          await drain(runner);
        }
        const failed = await messageOf(messageId);
        expect(failed.status).toBe('failed');
        expect(failed.last_error).toMatch(
          /^no word from The SMS Works in a day of sending it \(\d+ sends\); it may not have arrived$/,
        );
        expect(await orderOf(orderId)).toMatchObject({ lastNotificationStatus: 'failed' });

        const second = await loadOrder(locker);
        await drain(runner);
        t.advance(1_000);
        await drain(runner);
        expect(await messageOf(second.messageId)).toMatchObject({ provider_status: 'UNCONFIRMED' });
        await t.call('orders', 'cancel', { id: second.orderId, reason: 'Changed prescription' }, asSupport);
        t.advance(GRACE_MS);
        await drain(runner);
        const stopped = await messageOf(second.messageId);
        expect(stopped.status).toBe('failed');
        expect(stopped.unconfirmed_sends).toBe(1);
        t.advance(10 * GRACE_MS);
        await drain(runner);
        const left = await t.db
          .selectFrom('jobs')
          .select('type')
          .where('status', '<>', 'done')
          .where('dedupe_key', 'in', [second.messageId, `message.reconcile:${second.messageId}`])
          .execute();
        expect(left).toEqual([]);
      });
    });

    it('keeps a message taken over by another worker unconfirmed when the first worker’s call then fails', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const { messageId } = await loadOrder(locker);
        let release = () => {};
        answers.push({
          status: 503,
          body: { message: 'Service unavailable' },
          hold: new Promise<void>((resolve) => {
            release = resolve;
          }),
        });
        const options = { gateways: configuredGateways(t.deps.config, t.deps.mailer), areas: messagePort(t.deps) };
        // Worker A hands the message over; the gateway is slow to answer.
        const first = sendMessage(t.deps, options, messageId).catch((error: Error) => error);
        while (seen.length === 0) await Bun.sleep(5);
        // A's lease runs out: worker B takes the job, finds the message handed over, records it unconfirmed.
        t.advance(15_000);
        await sendMessage(t.deps, options, messageId);
        // B ran it as the message's job, which is done.
        await t.db.updateTable('jobs').set({ status: 'done' }).where('dedupe_key', '=', messageId).execute();
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED' });
        // The gateway now answers A with a 503: A must not clear the mark B's record stands on.
        release();
        await first;
        expect(await messageOf(messageId)).toMatchObject({ provider_status: 'UNCONFIRMED', status: 'pending' });
        expect((await messageOf(messageId)).sent_at).not.toBeNull();
        // No report comes (the gateway refused it): after the grace period it is sent, once.
        t.advance(GRACE_MS);
        const runner = runnerOf();
        await drain(runner);
        expect(seen).toHaveLength(2);
        expect(await messageOf(messageId)).toMatchObject({ provider_message_id: 'sw-2', provider_status: 'SENT' });
        t.advance(10 * GRACE_MS);
        await drain(runner);
        expect(seen).toHaveLength(2);
      });
    });
  },
  withTestAuth,
  env,
);

it('checks unconfirmed messages only where the provider’s reports reach us; never email', async () => {
  const { loadConfig } = await import('../../config/config.ts');
  const { reportsEveryMessage } = await import('./reconcile.ts');
  const config = loadConfig({ PUBLIC_URL: 'https://medlocker.example' });
  expect(reportsEveryMessage(config, 'smsworks')).toBe(true);
  expect(reportsEveryMessage(config, 'messagebird')).toBe(true);
  expect(reportsEveryMessage(config, 'email')).toBe(false);
  expect(reportsEveryMessage(config, 'local')).toBe(false);
  // AWS reports through a configuration set's event destination; WhatsApp's are checked with the app secret.
  expect(reportsEveryMessage(config, 'aws-sms')).toBe(false);
  expect(
    reportsEveryMessage(loadConfig({ PUBLIC_URL: 'https://m.example', AWS_SMS_CONFIGURATION_SET: 'c' }), 'aws-sms'),
  ).toBe(true);
  expect(reportsEveryMessage(config, 'whatsapp')).toBe(false);
  expect(
    reportsEveryMessage(loadConfig({ PUBLIC_URL: 'https://m.example', WHATSAPP_APP_SECRET: 's' }), 'whatsapp'),
  ).toBe(true);
  // No PUBLIC_URL: no report URL is given, so silence means nothing.
  expect(reportsEveryMessage(loadConfig({}), 'smsworks')).toBe(false);
});
