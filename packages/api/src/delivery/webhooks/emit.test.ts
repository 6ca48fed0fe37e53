import { afterAll, afterEach, expect, it } from 'bun:test';
import { offlineAfterMs } from '@medlocker/core';
import { declareExemption } from '../../areas/checkout/exemption.ts';
import { createJudoPaymentSession } from '../../areas/checkout/service.ts';
import { sweepOffline } from '../../areas/machines/index.ts';
import { messagePort } from '../../areas/messages/index.ts';
import { recordExpiredOrders } from '../../areas/orders/expiry.ts';
import { json } from '../../areas/orders/mapping-repository.ts';
import { moveOrder } from '../../areas/orders/moves.ts';
import type { Actor } from '../../context/actor.ts';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import { chargedOrder, chargingBusiness, judoAccount, patientActor, webhookAuth } from '../../testing/checkout.ts';
import { asSupport, listen, lockerEvents, seedBusiness, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { seedWebhookClient } from '../../testing/webhook-deliveries.ts';
import { smsWorksGateway } from '../messages/gateways/smsworks.ts';
import { messageReportUrl } from '../messages/report-urls.ts';
import { sendMessage } from '../messages/send.ts';
import { DISPATCH_JOB } from './repository.ts';

/*
 * Every flow that changes what a pharmacy's record system hears of records its integration event in
 * the change's transaction (issue 20; docs/decisions/integration.md "Integration events"). Each test drives the
 * real flow (RPC, the locker protocol, the sweeps, the checkout against the fake Judopay, a delivery
 * report) and reads the business's feed.
 */

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const signature = dataUrl('image/png', pngBytes(2048));

type FeedEvent = { type: string; key: string | null; seq: number; data: Record<string, unknown> };

describeApi(
  'integration events from every flow',
  (t) => {
    let patients = 0;
    const event = lockerEvents(t);
    /** The business's integration client (its PMR), with a webhook URL or without (feed only). */
    const connect = (businessId: string, webhookUrl: string | null = null) =>
      seedWebhookClient(t.db, businessId, { webhookUrl });
    const feed = async (businessId: string): Promise<FeedEvent[]> =>
      (
        await t.db
          .selectFrom('integration_events')
          .selectAll()
          .where('business_id', '=', businessId)
          .orderBy('seq')
          .execute()
      ).map((r) => ({
        type: r.type,
        key: r.ordering_key,
        seq: Number(r.seq),
        data: json<Record<string, unknown>>(r.payload) ?? {},
      }));
    const allEvents = async () => (await t.db.selectFrom('integration_events').select('id').execute()).length;
    const newOrder = async (businessId: string, barcode: string, extra: Record<string, unknown> = {}) => {
      const patient = await t.call('patients', 'create', { businessId, patient: testPatient(++patients) }, asSupport);
      const res = await t.call(
        'orders',
        'create',
        { businessId, patientId: patient.body.patient.id, barcode, ...extra },
        asSupport,
      );
      expect(res.status).toBe(200);
      return res.body.order as { id: string; reference: string; patientId: string };
    };
    const types = (events: FeedEvent[]) => events.map((e) => [e.type, e.key]);

    it('console: order.created then order.cancelled with the order after each change; none without a client; no business sees another’s', async () => {
      for (const b of ['b1', 'b2', 'b3']) await seedBusiness(t.db, b);
      await connect('b1');
      await connect('b2');
      const o = await newOrder('b1', 'RX-1');
      const [created] = await feed('b1');
      expect(created).toMatchObject({ type: 'order.created', key: o.id, seq: 1 });
      expect(created?.data).toEqual({
        id: o.id,
        reference: o.reference,
        patientId: o.patientId,
        barcode: 'RX-1',
        machineId: null,
        machineName: null,
        status: 'new',
        paymentStatus: 'not_required',
        prescriptionCharge: 0,
        retailCharge: 0,
        amountPaid: 0,
        exemptionCode: null,
        collectionWindow: expect.any(Number),
        expiresAt: null,
        collectedAt: null,
        cancelledAt: null,
        createdVia: 'portal',
        messagesSuppressed: false,
        createdAt: new Date(t.deps.now()).toISOString(),
        updatedAt: new Date(t.deps.now()).toISOString(),
      });
      t.advance(1000);
      expect((await t.call('orders', 'cancel', { id: o.id, reason: 'Not needed' }, asSupport)).status).toBe(200);
      const b1 = await feed('b1');
      expect(types(b1)).toEqual([
        ['order.created', o.id],
        ['order.cancelled', o.id],
      ]);
      expect(b1[1]).toMatchObject({
        seq: 2,
        data: { status: 'cancelled', cancelledAt: new Date(t.deps.now()).toISOString() },
      });
      // A refused change (cancelled already) records nothing.
      expect((await t.call('orders', 'cancel', { id: o.id, reason: 'Again' }, asSupport)).status).toBe(409);

      const other = await newOrder('b2', 'RX-1');
      await newOrder('b3', 'RX-1');
      expect(types(await feed('b2'))).toEqual([['order.created', other.id]]);
      expect((await feed('b2'))[0]?.seq).toBe(1);
      expect(await feed('b1')).toHaveLength(2);
      expect(await feed('b3')).toEqual([]);
      expect(await allEvents()).toBe(3);
    });

    it('locker and staff: loaded, collected, removed, marked collected and removed; a replayed locker event emits nothing more; alarms above info', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        await connect('b1', 'https://pmr.example/hooks/medlocker');
        const a = await newOrder('b1', 'RX-1');
        const loadA = event({ barcode: 'RX-1', location: 'A1' });
        expect((await locker.call('BagLoaded', loadA))[2]).toMatchObject({ orderId: a.id });
        await locker.call('BagLoaded', loadA);
        const collectA = event({ barcode: 'RX-1', location: 'A1' });
        await locker.call('BagCollected', collectA);
        await locker.call('BagCollected', collectA);

        const b = await newOrder('b1', 'RX-2');
        await locker.call('BagLoaded', event({ barcode: 'RX-2', location: 'A2' }));
        const removeB = event({ barcode: 'RX-2', reason: 'staff' });
        await locker.call('BagRemoved', removeB);
        await locker.call('BagRemoved', removeB);

        const c = await newOrder('b1', 'RX-3');
        await locker.call('BagLoaded', event({ barcode: 'RX-3', location: 'A3' }));
        expect((await t.call('orders', 'markCollected', { id: c.id }, asSupport)).status).toBe(200);
        const d = await newOrder('b1', 'RX-4');
        await locker.call('BagLoaded', event({ barcode: 'RX-4', location: 'A4' }));
        expect((await t.call('orders', 'markRemoved', { id: d.id }, asSupport)).status).toBe(200);

        // A bag loaded before its order existed: the order, created, is loaded at once (created first).
        await locker.call('BagLoaded', event({ barcode: 'RX-5', location: 'A5' }));
        const e = await newOrder('b1', 'RX-5');

        // An alarm (critical), replayed; a routine event (info) is no alarm.
        const power = event({ code: 'EM_0003', message: 'Mains lost' });
        await locker.call('MachineEvent', power);
        await locker.call('MachineEvent', power);
        await locker.call('MachineEvent', event({ code: 'EM_0017' }));

        const events = await feed('b1');
        expect(types(events)).toEqual([
          ['order.created', a.id],
          ['order.loaded', a.id],
          ['order.collected', a.id],
          ['order.created', b.id],
          ['order.loaded', b.id],
          ['order.removed', b.id],
          ['order.created', c.id],
          ['order.loaded', c.id],
          ['order.collected', c.id],
          ['order.created', d.id],
          ['order.loaded', d.id],
          ['order.removed', d.id],
          ['order.created', e.id],
          ['order.loaded', e.id],
          ['machine.alarm', machine.id],
        ]);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events[1]?.data).toMatchObject({
          status: 'loaded',
          machineId: machine.id,
          machineName: 'Locker 1',
          expiresAt: expect.any(String),
        });
        expect(events[2]?.data).toMatchObject({ status: 'collected', collectedAt: expect.any(String) });
        expect(events[5]?.data).toMatchObject({ status: 'removed' });
        expect(events[13]?.data).toMatchObject({ status: 'loaded', machineId: machine.id });
        expect(events[14]?.data).toEqual({
          machineId: machine.id,
          machineName: 'Locker 1',
          code: 'EM_0003',
          name: 'MainsPowerFailure',
          level: 'critical',
          message: 'Mains lost',
          raisedAt: new Date(t.deps.now()).toISOString(),
        });
        // The PIN never leaves: not in the data, sealed or plain.
        for (const e of events) expect(Object.keys(e.data)).not.toContain('pin');

        // With a webhook URL each event has its delivery, and one dispatch job is queued for the client.
        const deliveries = await t.db.selectFrom('webhook_deliveries').select(['id', 'ordering_key']).execute();
        expect(deliveries).toHaveLength(events.length);
        const jobs = await t.db.selectFrom('jobs').select('id').where('type', '=', DISPATCH_JOB).execute();
        expect(jobs).toHaveLength(1);
      });
    }, 30_000);

    it('expiry sweep: order.expired once, with the order as it is (loaded, past its expiry)', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await connect('b1');
        const o = await newOrder('b1', 'EX-1', { collectionWindow: 1 });
        await locker.call('BagLoaded', event({ barcode: 'EX-1', location: 'B1' }));
        t.advance(86_400_000 + 1);
        expect(await recordExpiredOrders(t.deps)).toBe(1);
        expect(await recordExpiredOrders(t.deps)).toBe(0);
        const events = await feed('b1');
        expect(types(events)).toEqual([
          ['order.created', o.id],
          ['order.loaded', o.id],
          ['order.expired', o.id],
        ]);
        expect(events[2]?.data).toMatchObject({ status: 'loaded', expiresAt: events[1]?.data.expiresAt });
      });
    }, 30_000);

    it('machine.status on real changes only (out of order and back, offline, online, archived), not per heartbeat', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        await connect('b1');
        const toggle = () => t.call('machines', 'toggleOutOfOrderStatus', { id: machine.id }, asSupport);
        expect((await toggle()).status).toBe(200);
        expect((await toggle()).status).toBe(200);
        await locker.call('Heartbeat', {});
        await locker.call('Heartbeat', {});
        expect(types(await feed('b1'))).toEqual([
          ['machine.status', machine.id],
          ['machine.alarm', machine.id],
          ['machine.status', machine.id],
        ]);
        t.advance(offlineAfterMs(60) + 1);
        expect(await sweepOffline(t.deps, 60)).toEqual([machine.id]);
        expect(await sweepOffline(t.deps, 60)).toEqual([]);
        await locker.call('Heartbeat', {});
        await locker.call('Heartbeat', {});
        expect((await t.call('machines', 'toggleArchive', { id: machine.id }, asSupport)).status).toBe(200);
        const events = await feed('b1');
        const status = (e: FeedEvent | undefined) => {
          const { online, inOrder, archived } = e?.data ?? {};
          return { type: e?.type, online, inOrder, archived };
        };
        expect(events.map(status)).toEqual([
          { type: 'machine.status', online: true, inOrder: false, archived: false },
          { type: 'machine.alarm', online: undefined, inOrder: undefined, archived: undefined },
          { type: 'machine.status', online: true, inOrder: true, archived: false },
          { type: 'machine.status', online: false, inOrder: true, archived: false },
          { type: 'machine.alarm', online: undefined, inOrder: undefined, archived: undefined },
          { type: 'machine.status', online: true, inOrder: true, archived: false },
          { type: 'machine.status', online: false, inOrder: true, archived: true },
        ]);
        expect(events[1]?.data).toMatchObject({ code: 'MP_0003', name: 'OutOfOrder', level: 'warn' });
        expect(events[4]?.data).toMatchObject({ code: 'MP_0006', name: 'MachineOffline' });
        expect(events[0]?.data).toEqual({
          machineId: machine.id,
          machineName: 'Locker 1',
          online: true,
          inOrder: false,
          archived: false,
          at: expect.any(String),
        });
      });
    }, 30_000);

    it('order.payment_updated: a card payment from Judopay’s webhook, and an exemption declared; not a decline', async () => {
      const estate = await chargingBusiness(t);
      await connect(estate.businessId);
      const orderId = await chargedOrder(t, estate);
      const patient = patientActor(estate);
      const declined = await createJudoPaymentSession(t.deps, patient, { orderId });
      const server = listen(t);
      try {
        const hook = `${server.http}/hooks/judopay`;
        await judo.sendWebhook(hook, judo.pay(declined.yourPaymentReference, 'Declined'), webhookAuth);
        const session = await createJudoPaymentSession(t.deps, patient, { orderId });
        const receipt = judo.pay(session.yourPaymentReference);
        expect((await judo.sendWebhook(hook, receipt, webhookAuth)).status).toBe(200);
        await judo.sendWebhook(hook, receipt, webhookAuth);
        const events = await feed(estate.businessId);
        expect(types(events)).toEqual([
          ['order.created', orderId],
          ['order.payment_updated', orderId],
        ]);
        expect(events[1]?.data).toMatchObject({
          status: 'new',
          paymentStatus: 'paid',
          amountPaid: 1190,
          payment: { change: 'card_payment', receiptId: receipt.receiptId, amount: 1190 },
        });
        // Never the card: its last four digits nor its expiry.
        const card = receipt.cardDetails;
        expect(card).not.toBeNull();
        expect(JSON.stringify(events[1]?.data)).not.toContain(`"${card?.cardLastfour}"`);
        expect(JSON.stringify(events[1]?.data)).not.toContain(`${card?.endDate}`);
      } finally {
        server.stop();
      }

      const exempt = await chargedOrder(t, estate, { prescriptionCharge: 990 });
      await declareExemption(t.deps, patient, {
        orderId: exempt,
        exemptionCode: 'F',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      const [, declared] = (await feed(estate.businessId)).filter((e) => e.key === exempt);
      expect(declared).toMatchObject({
        type: 'order.payment_updated',
        data: {
          paymentStatus: 'exemption_declared',
          exemptionCode: 'F',
          payment: {
            change: 'exemption_declared',
            exemptionCode: 'F',
            nameOfDeclarant: 'Sam Patient',
            onBehalfOfPatient: false,
            declaredAt: new Date(t.deps.now()).toISOString(),
          },
        },
      });
      expect(JSON.stringify(declared)).not.toContain('data:image');
    }, 30_000);

    it('message.status: the sender’s send, then a gateway’s delivery reports; ordered by the order; no body, no recipient', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await connect('b1');
        const o = await newOrder('b1', 'RX-M');
        await locker.call('BagLoaded', event({ barcode: 'RX-M', location: 'C1' }));
        const ready = await t.db
          .selectFrom('message_outbox')
          .selectAll()
          .where('order_id', '=', o.id)
          .executeTakeFirstOrThrow();
        // No gateway configured outside production: the local one, which reports nothing later (delivered).
        await sendMessage(t.deps, { gateways: {}, areas: messagePort(t.deps) }, ready.id);
        // A message of The SMS Works still on its way, and its reports through the report route.
        const sms = Bun.randomUUIDv7();
        await t.db
          .insertInto('message_outbox')
          .values({
            id: sms,
            business_id: 'b1',
            order_id: o.id,
            patient_id: o.patientId,
            channel: 'sms',
            recipient: '+447700900123',
            template_key: 'orderUpdated',
            body: 'Your PIN is 12345678',
            next_attempt_at: 1,
            provider: 'smsworks',
            provider_message_id: 'sw-1',
            sent_at: 2,
            created: 1,
            updated: 2,
          })
          .execute();
        const url = new URL(messageReportUrl(t.deps.config, 'smsworks', sms) ?? '');
        const report = (status: string) =>
          t.raw(url.pathname + url.search, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ messageid: 'sw-1', status, tag: sms }),
          });
        expect((await report('SENT')).status).toBe(200);
        expect((await report('UNDELIVERABLE')).status).toBe(200);
        expect((await report('UNDELIVERABLE')).status).toBe(200);

        const messages = (await feed('b1')).filter((e) => e.type === 'message.status');
        expect(messages.map((e) => [e.key, e.data.messageId, e.data.status])).toEqual([
          [o.id, ready.id, 'delivered'],
          [o.id, sms, 'failed'],
        ]);
        expect(messages[0]?.data).toEqual({
          messageId: ready.id,
          orderId: o.id,
          patientId: ready.patient_id,
          channel: 'sms',
          templateKey: 'orderReady',
          status: 'delivered',
          at: new Date(t.deps.now()).toISOString(),
        });
        expect(messages[1]?.data.error).toEqual(expect.any(String));
        const text = JSON.stringify(messages);
        expect(text).not.toContain('12345678');
        expect(text).not.toContain('7700900');
      });
    }, 30_000);

    it('message.status failed: the reason without the number or address a gateway named in its refusal', async () => {
      await seedBusiness(t.db, 'b1');
      await connect('b1');
      const settings = { businessId: 'b1', settings: { smsGateway: 'thesmsworks' } };
      expect((await t.call('businessSettings', 'updateBusinessControlledSettings', settings, asSupport)).status).toBe(
        200,
      );
      const o = await newOrder('b1', 'RX-F');
      // The SMS Works refusing a number in its own words, which name it (as providers' errors do).
      const smsWorks = Bun.serve({
        port: 0,
        hostname: '127.0.0.1',
        async fetch(req) {
          const { destination } = (await req.json()) as { destination: string };
          const words = `Destination ${destination} is not reachable; contact jane.doe@example.com for +44 7700 900123`;
          return Response.json({ message: words }, { status: 400 });
        },
      });
      try {
        const gateway = smsWorksGateway({ jwt: 'JWT test', apiUrl: `http://127.0.0.1:${smsWorks.port}` });
        const send = async (recipient: string) => {
          const id = Bun.randomUUIDv7();
          await t.db
            .insertInto('message_outbox')
            .values({
              id,
              business_id: 'b1',
              order_id: o.id,
              patient_id: o.patientId,
              channel: 'sms',
              recipient,
              template_key: 'orderCancelled',
              body: 'Your order was cancelled',
              next_attempt_at: 1,
              created: 1,
              updated: 1,
            })
            .execute();
          await sendMessage(t.deps, { gateways: { smsworks: gateway }, areas: messagePort(t.deps) }, id).catch(
            () => {},
          );
        };
        await send('+447700900456');
        await send('07700-9004x'); // not a phone number: refused here, in words that name it
      } finally {
        smsWorks.stop(true);
      }
      const failed = (await feed('b1')).filter((e) => e.type === 'message.status');
      expect(failed.map((e) => e.data.status)).toEqual(['failed', 'failed']);
      for (const e of failed) expect(e.data.error).toEqual(expect.any(String));
      const text = JSON.stringify(failed);
      for (const personal of ['7700900456', '7700-9004', '900123', 'jane.doe@example.com']) {
        expect(text).not.toContain(personal);
      }
    });

    it('a change rolled back leaves no event, and the feed’s sequence goes on without a gap', async () => {
      await seedBusiness(t.db, 'b1');
      await connect('b1', 'https://pmr.example/hooks/medlocker');
      const o = await newOrder('b1', 'RX-R');
      const actor: Actor = {
        kind: 'integration',
        clientId: 'client-b1',
        businessId: 'b1',
        origin: { via: 'test', requestId: 'r-1', ip: null, userAgent: null },
      };
      const change = () => ({
        set: { status: 'cancelled' as const, cancelled_at: t.deps.now(), cancel_reason: 'PMR' },
        event: { code: 'ORDER_CANCELLED', message: 'Cancelled by the PMR' },
      });
      await expect(
        t.db.transaction().execute(async (tx) => {
          await moveOrder(t.deps, actor, o.id, 'cancel', change, tx);
          throw new Error('the rest of the change failed');
        }),
      ).rejects.toThrow('the rest of the change failed');
      expect(types(await feed('b1'))).toEqual([['order.created', o.id]]);
      expect(await t.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(1);
      await moveOrder(t.deps, actor, o.id, 'cancel', change);
      expect((await feed('b1')).map((e) => [e.type, e.seq])).toEqual([
        ['order.created', 1],
        ['order.cancelled', 2],
      ]);
    });
  },
  withTestAuth,
  {
    JUDOPAY_API_URL: judo.url,
    JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
    JUDOPAY_WEBHOOK_USER: webhookAuth.user,
    JUDOPAY_WEBHOOK_PASSWORD: webhookAuth.password,
  },
);
