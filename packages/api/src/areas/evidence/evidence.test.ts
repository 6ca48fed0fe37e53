import { expect, it } from 'bun:test';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import type { AuthPort } from '../../context/actor.ts';
import { jobHandlers } from '../../job-handlers.ts';
import { createRunner } from '../../jobs/runner.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi } from '../../testing/api.ts';
import {
  asSupport,
  eventually,
  lockerEvents,
  SUPPORT,
  type TestLocker,
  testAuth,
  withBootedLocker,
} from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { saveTestIntegrationClient } from '../../testing/webhooks.ts';
import { sendExpiryReminders } from '../orders/expiry.ts';
import { packZip } from './file.ts';

const HOUR = 3_600_000;
const MIN = 60_000;
const asPharmacy = { cookie: 'session=pharmacy' };
/** A pharmacy user whose Business role reaches one business (cookie `session=pharmacy-<business>`). */
const pharmacyOf = (businessId: string) => ({ cookie: `session=pharmacy-${businessId}` });
const scopedAuth: AuthPort = {
  principalOf: async (request, ctx) => {
    const business = /session=pharmacy-(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    if (!business) return testAuth.principalOf(request, ctx);
    return {
      ...SUPPORT,
      userId: 'u-pharm',
      displayName: 'Pat Pharmacy',
      scopes: [],
      businesses: new Map([[business, { admin: false }]]),
    };
  },
};

describeApi(
  'evidence pack',
  (t) => {
    let patients = 0;
    const event = lockerEvents(t);
    const newOrder = async (barcode: string) => {
      const patient = await t.call(
        'patients',
        'create',
        { businessId: 'b1', patient: testPatient(++patients) },
        asSupport,
      );
      const res = await t.call(
        'orders',
        'create',
        { businessId: 'b1', patientId: patient.body.patient.id, barcode },
        asSupport,
      );
      expect(res.status).toBe(200);
      return res.body.order as { id: string; reference: string };
    };
    const pinOf = async (id: string) =>
      (await t.call('orders', 'setRevealPinReason', { id, reason: 'checking' }, asSupport)).body.pin as string;
    const verify = async (locker: TestLocker, pin: string) =>
      ((await locker.call('VerifyPin', { pin }))[2] as { status: string }).status;
    const outboxKeys = async (orderId: string) =>
      (
        await t.db
          .selectFrom('message_outbox')
          .select('template_key')
          .where('order_id', '=', orderId)
          .orderBy('created')
          .orderBy('id')
          .execute()
      ).map((m) => m.template_key);
    const codes = async (orderId: string) =>
      (await t.call('orders', 'listEvents', { orderId }, asSupport)).body.events.map((e: { code: string }) => e.code);
    /** The patient page of an order, signed in as its patient (date of birth, as testPatient's). */
    const patientPage = async (orderId: string) => {
      const signIn = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1980-01-02' });
      const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      const res = await t.call('patientOrders', 'get', { orderId }, { cookie: cookie.split(';')[0] as string });
      expect(res.status).toBe(200);
      return res.body as { order: { onHold: boolean; live: boolean }; pin: string | null };
    };
    const load = (locker: TestLocker, barcode: string, location: string) =>
      locker.call('BagLoaded', event({ barcode, location }));

    /**
     * The excursion scenario, through the API and the locker: A is loaded before the range and stays,
     * B is loaded and collected before it, C is loaded during it, E after it, D never. During the range
     * the locker reads 30 °C (an excursion) and raises a mains power failure.
     */
    async function excursion(locker: TestLocker, machineId: string) {
      const [a, b, c, d, e] = [await newOrder('EV-A'), await newOrder('EV-B'), await newOrder('EV-C')].concat([
        await newOrder('EV-D'),
        await newOrder('EV-E'),
      ]);
      if (!a || !b || !c || !d || !e) throw new Error('orders');
      await load(locker, 'EV-A', 'A1');
      await load(locker, 'EV-B', 'B1');
      const pinA = await pinOf(a.id);
      const pinB = await pinOf(b.id);
      t.advance(HOUR);
      expect(await verify(locker, pinB)).toBe('Accepted');
      await locker.call('BagCollected', event({ barcode: 'EV-B', location: 'B1' }));
      t.advance(HOUR);
      const from = t.deps.now();
      t.advance(10 * MIN);
      const now = t.deps.now();
      await locker.call(
        'TemperatureReadings',
        event({ readings: [20, 29, 30, 31].map((value, i) => ({ created: now - (3 - i) * MIN, value })) }),
      );
      await eventually(
        async () =>
          (await t.db.selectFrom('machine_events').select('id').where('code', '=', 'MP_0001').execute()).length === 1,
      );
      await locker.call('MachineEvent', event({ code: 'EM_0003' }));
      t.advance(20 * MIN);
      await load(locker, 'EV-C', 'C1');
      t.advance(30 * MIN);
      const to = t.deps.now();
      t.advance(30 * MIN);
      await load(locker, 'EV-E', 'E1');
      return { a, b, c, d, e, pinA, from, to, machineId };
    }

    it('lists exactly the orders inside during the range, the readings, alarms, messages and actors', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const s = await excursion(locker, machine.id);
        const res = await t.call(
          'evidence',
          'getEvidencePack',
          { machineId: machine.id, from: s.from, to: s.to },
          asSupport,
        );
        expect(res.status).toBe(200);
        const pack = res.body.pack;
        expect(pack.machine).toMatchObject({ id: machine.id, businessId: 'b1', businessName: 'Pharmacy b1' });
        expect(pack.orders.map((o: { reference: string }) => o.reference)).toEqual([s.a.reference, s.c.reference]);
        expect(pack.orders[0]).toMatchObject({
          barcode: 'EV-A',
          location: 'A1',
          outAt: null,
          live: true,
          pinHold: null,
        });
        expect(pack.orders[1]).toMatchObject({ barcode: 'EV-C', location: 'C1', inAt: s.from + 30 * MIN });
        expect(pack.temperature).toMatchObject({ count: 4, min: 20, max: 31, average: 27.5, outsideCount: 3 });
        expect(pack.temperature.outside.map((r: { value: number }) => r.value)).toEqual([29, 30, 31]);
        expect(pack.temperature.excursions.map((e: { code: string }) => e.code)).toEqual(['MP_0001']);
        expect(pack.alarms.map((e: { code: string; level: string }) => [e.code, e.level])).toEqual([
          ['EM_0003', 'critical'],
        ]);
        const messages = pack.orders[0]?.messages ?? [];
        expect(messages.map((m: { templateKey: string; channel: string }) => [m.templateKey, m.channel])).toEqual([
          ['orderReady', 'sms'],
        ]);
        expect(messages[0]?.body).toContain('[PIN]');
        expect(messages[0]?.body).not.toContain(s.pinA);
        // Who acted from the start of the range: the locker loading C.
        expect(pack.actions.map((a) => [a.orderReference, a.code])).toEqual([[s.c.reference, 'ORDER_LOADED']]);
        // Reading the pack is a read of each order shown, audited.
        const reads = await t.db
          .selectFrom('audit_log')
          .select('entity_id')
          .where('action', '=', 'order.read')
          .where(sql<string>`details->>'via'`, '=', 'evidencePack')
          .execute();
        expect(reads.map((r) => r.entity_id).sort()).toEqual([s.a.id, s.c.id].sort());

        // C collected after the range: it was still inside during it, and says when it left.
        t.advance(HOUR);
        await locker.call('BagCollected', event({ barcode: 'EV-C', location: 'C1' }));
        const later = await t.call(
          'evidence',
          'getEvidencePack',
          { machineId: machine.id, from: s.from, to: s.to },
          asSupport,
        );
        expect(later.body.pack.orders.map((o) => [o.reference, o.status, o.outAt])).toEqual([
          [s.a.reference, 'loaded', null],
          [s.c.reference, 'collected', t.deps.now()],
        ]);
      });
    }, 30_000);

    it('counts a bag from when it went in, even when its order was made after the range', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        // The bag is loaded before its order exists (waiting), the range passes, then the order is made.
        await load(locker, 'WB-1', 'W1');
        t.advance(10 * MIN);
        const from = t.deps.now();
        t.advance(HOUR);
        const to = t.deps.now();
        t.advance(HOUR);
        const order = await newOrder('WB-1');
        const res = await t.call('evidence', 'getEvidencePack', { machineId: machine.id, from, to }, asSupport);
        expect(res.status).toBe(200);
        expect(res.body.pack.orders.map((o: { reference: string; inAt: number }) => [o.reference, o.inAt])).toEqual([
          [order.reference, from - 10 * MIN],
        ]);
      });
    }, 30_000);

    it('holds PINs (the locker refuses them, the patient is told) and releases them', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const s = await excursion(locker, machine.id);
        const held = await t.call(
          'evidence',
          'holdPins',
          { orderIds: [s.a.id, s.c.id], reason: 'Excursion' },
          asSupport,
        );
        expect(held.status).toBe(200);
        expect(held.body.orders[0]?.pinHold).toMatchObject({ heldByDisplayName: 'Sam Support', reason: 'Excursion' });
        expect(await verify(locker, s.pinA)).toBe('Held');
        expect(await outboxKeys(s.a.id)).toEqual(['orderReady', 'orderPinHeld']);
        // The patient page says collection is paused and shows no PIN the locker would refuse.
        expect(await patientPage(s.a.id)).toMatchObject({ order: { onHold: true, live: true }, pin: null });
        // Nor do staff send it the PIN again, or a reminder to collect, while held.
        for (const method of ['resendOrderReadyMessage', 'sendOrderExpiryMessage'] as const) {
          const asked = await t.call('patientOrders', method, { orderId: s.a.id }, asSupport);
          expect([asked.status, asked.body.error.message]).toEqual([
            409,
            'This order’s PIN is held: release it before messaging the patient',
          ]);
        }
        expect(await codes(s.a.id)).toEqual([
          'ORDER_CREATED',
          'ORDER_LOADED',
          'PIN_REVEALED',
          'PIN_HELD',
          'PIN_REFUSED_HELD',
        ]);
        const audits = await t.db
          .selectFrom('audit_log')
          .select('entity_id')
          .where('action', '=', 'order.holdPin')
          .execute();
        expect(audits.map((r) => r.entity_id).sort()).toEqual([s.a.id, s.c.id].sort());
        // A held try is not a wrong one.
        const tries = await t.db.selectFrom('pin_attempts').select('outcome').where('order_id', '=', s.a.id).execute();
        expect(tries.map((r) => r.outcome)).toContain('held');
        const got = await t.call('orders', 'get', { id: s.a.id }, asSupport);
        expect(got.body.order.pinHold).toMatchObject({ reason: 'Excursion' });
        const pack = await t.call(
          'evidence',
          'getEvidencePack',
          { machineId: machine.id, from: s.from, to: s.to },
          asSupport,
        );
        expect(pack.body.pack.orders.map((o: { pinHold: unknown }) => o.pinHold !== null)).toEqual([true, true]);

        const again = await t.call('evidence', 'holdPins', { orderIds: [s.a.id], reason: 'Again' }, asSupport);
        expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);

        const released = await t.call(
          'evidence',
          'releasePins',
          { orderIds: [s.a.id], reason: 'Checked: fine' },
          asSupport,
        );
        expect(released.status).toBe(200);
        expect(released.body.orders[0]?.pinHold).toBeUndefined();
        const resumed = await patientPage(s.a.id);
        expect(resumed.order.onHold).toBe(false);
        expect(resumed.pin?.replace(/\s+/g, '')).toBe(s.pinA);
        expect(await verify(locker, s.pinA)).toBe('Accepted');
        expect(await outboxKeys(s.a.id)).toEqual(['orderReady', 'orderPinHeld', 'orderPinReleased']);
        expect((await codes(s.a.id)).slice(-2)).toEqual(['PIN_RELEASED', 'PIN_ACCEPTED']);
        const notHeld = await t.call('evidence', 'releasePins', { orderIds: [s.a.id], reason: 'x' }, asSupport);
        expect(notHeld.status).toBe(409);

        // All or nothing: a collected order in the batch refuses the whole hold, and A stays released.
        const mixed = await t.call('evidence', 'holdPins', { orderIds: [s.a.id, s.b.id], reason: 'Batch' }, asSupport);
        expect(mixed.status).toBe(409);
        expect(mixed.body.error.message).toContain(s.b.reference);
        expect(mixed.body.error.message).toContain('collected');
        expect((await t.call('orders', 'get', { id: s.a.id }, asSupport)).body.order.pinHold).toBeUndefined();
        expect(await outboxKeys(s.a.id)).toEqual(['orderReady', 'orderPinHeld', 'orderPinReleased']);
        // A new order (not in a locker) is not live either.
        expect((await t.call('evidence', 'holdPins', { orderIds: [s.d.id], reason: 'x' }, asSupport)).status).toBe(409);
      });
    }, 30_000);

    it('a PIN typed while a hold is being committed waits for it and is refused (PostgreSQL)', async () => {
      if (t.kind !== 'postgres') return; // PGlite runs one statement at a time: nothing overlaps.
      await withBootedLocker(t, async ({ locker }) => {
        const order = await newOrder('RC-1');
        await load(locker, 'RC-1', 'A1');
        const pin = await pinOf(order.id);
        let release = () => {};
        const released = new Promise<void>((r) => {
          release = r;
        });
        let locked = () => {};
        const isLocked = new Promise<void>((r) => {
          locked = r;
        });
        // holdPins's transaction, caught between its update and its commit.
        const holding = t.db.transaction().execute(async (tx) => {
          await sql`select id from orders where id = ${order.id} for update`.execute(tx);
          await tx.updateTable('orders').set({ pin_held_at: t.deps.now() }).where('id', '=', order.id).execute();
          locked();
          await released;
        });
        await isLocked;
        const typed = verify(locker, pin);
        const until = Date.now() + 4_000;
        while (Date.now() < until) {
          const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
          if (Number(rows[0]?.n) >= 1) break;
          await Bun.sleep(10);
        }
        release();
        await holding;
        expect(await typed).toBe('Held');
      });
    }, 30_000);

    it('tells the pharmacy’s record system of each hold and release (order.pin_held, order.pin_released)', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        expect((await saveTestIntegrationClient(t, null)).status).toBe(200);
        const order = await newOrder('WH-1');
        await load(locker, 'WH-1', 'A1');
        const heldAt = t.deps.now();
        await t.call('evidence', 'holdPins', { orderIds: [order.id], reason: 'Excursion' }, asSupport);
        t.advance(MIN);
        await t.call('evidence', 'releasePins', { orderIds: [order.id], reason: 'Checked' }, asSupport);
        const feed = await t.db
          .selectFrom('integration_events')
          .select(['type', 'ordering_key', 'payload'])
          .where('business_id', '=', 'b1')
          .where('type', 'like', 'order.pin%')
          .orderBy('seq')
          .execute();
        const data = (p: unknown) => (typeof p === 'string' ? JSON.parse(p) : p) as Record<string, unknown>;
        expect(feed.map((e) => [e.type, e.ordering_key])).toEqual([
          ['order.pin_held', order.id],
          ['order.pin_released', order.id],
        ]);
        expect(data(feed[0]?.payload)).toMatchObject({
          id: order.id,
          status: 'loaded',
          pinHold: { heldAt: new Date(heldAt).toISOString(), reason: 'Excursion' },
        });
        expect(data(feed[1]?.payload)).toMatchObject({
          id: order.id,
          pinHold: {
            heldAt: new Date(heldAt).toISOString(),
            reason: 'Excursion',
            releasedAt: new Date(heldAt + MIN).toISOString(),
            releaseReason: 'Checked',
          },
        });
        // Staff names stay out of what leaves MedLocker.
        expect(JSON.stringify(feed.map((e) => data(e.payload)))).not.toContain('Sam Support');
      });
    }, 30_000);

    it('refuses to hold a cancelled or expired order, naming its state, and holds nothing', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const cancelled = await newOrder('ST-1');
        const expiring = await newOrder('ST-2');
        await load(locker, 'ST-1', 'A1');
        await load(locker, 'ST-2', 'A2');
        expect((await t.call('orders', 'cancel', { id: cancelled.id, reason: 'Wrong bag' }, asSupport)).status).toBe(
          200,
        );
        const hold = (id: string) => t.call('evidence', 'holdPins', { orderIds: [id], reason: 'Check' }, asSupport);
        const one = await hold(cancelled.id);
        expect([one.status, one.body.error.message]).toEqual([
          409,
          `Order ${cancelled.reference} is cancelled: only a loaded order's PIN can be held`,
        ]);
        t.advance(60 * 24 * HOUR);
        const two = await hold(expiring.id);
        expect([two.status, two.body.error.message]).toEqual([
          409,
          `Order ${expiring.reference} is expired: only a loaded order's PIN can be held`,
        ]);
        expect(await codes(expiring.id)).not.toContain('PIN_HELD');
        expect(await codes(cancelled.id)).not.toContain('PIN_HELD');
      });
    }, 30_000);

    it('keeps the expiry reminder due while the PIN is held for after its release', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const order = await newOrder('XR-1');
        await load(locker, 'XR-1', 'A1');
        await t.call('evidence', 'holdPins', { orderIds: [order.id], reason: 'Check' }, asSupport);
        const { expiresAt } = (await t.call('orders', 'get', { id: order.id }, asSupport)).body.order;
        t.advance((expiresAt ?? 0) - t.deps.now() - 2 * HOUR);
        await sendExpiryReminders(t.deps);
        expect(await outboxKeys(order.id)).toEqual(['orderReady', 'orderPinHeld']);
        await t.call('evidence', 'releasePins', { orderIds: [order.id], reason: 'Fine' }, asSupport);
        await sendExpiryReminders(t.deps);
        expect(await outboxKeys(order.id)).toEqual(['orderReady', 'orderPinHeld', 'orderPinReleased', 'orderExpiring']);
      });
    }, 30_000);

    it('sends no message inviting collection while the PIN is held, nor a paused one after the release', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const order = await newOrder('MS-1');
        await load(locker, 'MS-1', 'A1');
        const hold = (reason: string) => t.call('evidence', 'holdPins', { orderIds: [order.id], reason }, asSupport);
        const release = () => t.call('evidence', 'releasePins', { orderIds: [order.id], reason: 'Fine' }, asSupport);
        const send = async () => {
          const runner = createRunner({
            db: t.db,
            logger: t.deps.logger,
            now: t.deps.now,
            handlers: jobHandlers(t.deps),
          });
          await runner.tick();
          await runner.idle();
          await runner.stop(100);
        };
        const outbox = async () =>
          (
            await t.db
              .selectFrom('message_outbox')
              .select(['template_key', 'status', 'last_error'])
              .where('order_id', '=', order.id)
              .orderBy('created')
              .orderBy('id')
              .execute()
          ).map((m) => [m.template_key, m.status, m.last_error]);
        // Held before the sender got to the ready message: its PIN does not go, the pause does.
        expect((await hold('Excursion')).status).toBe(200);
        await send();
        const heldWords = 'No message sent: the PIN was held before the';
        expect(await outbox()).toEqual([
          ['orderReady', 'failed', `${heldWords} order ready message went`],
          ['orderPinHeld', 'success', null],
        ]);
        // Released and held again before the sender ran: no "collect again", one more pause.
        t.advance(MIN);
        expect((await release()).status).toBe(200);
        expect((await hold('Second look')).status).toBe(200);
        await send();
        expect((await outbox()).slice(2)).toEqual([
          ['orderPinReleased', 'failed', `${heldWords} collection resumed message went`],
          ['orderPinHeld', 'success', null],
        ]);
        t.advance(MIN);
        expect((await release()).status).toBe(200);
        await send();
        expect((await outbox()).slice(4)).toEqual([['orderPinReleased', 'success', null]]);
        // Released before the pause went: the patient hears only that they can collect.
        t.advance(MIN);
        expect((await hold('Third')).status).toBe(200);
        expect((await release()).status).toBe(200);
        await send();
        expect((await outbox()).slice(5)).toEqual([
          ['orderPinHeld', 'failed', 'No message sent: the PIN was released before the collection paused message went'],
          ['orderPinReleased', 'success', null],
        ]);
      });
    }, 30_000);

    it('downloads the pack as a ZIP of a summary and CSVs with every reading', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const s = await excursion(locker, machine.id);
        await t.call('evidence', 'holdPins', { orderIds: [s.c.id], reason: 'Warm, check' }, asSupport);
        const res = await t.call(
          'evidence',
          'downloadEvidencePack',
          { machineId: machine.id, from: s.from, to: s.to },
          asSupport,
        );
        expect(res.status).toBe(200);
        expect(res.body.fileName).toMatch(/^evidence-Locker-1-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.zip$/);
        const files = unzipSync(Buffer.from(res.body.data, 'base64'));
        expect(Object.keys(files).sort()).toEqual([
          'actions.csv',
          'alarms.csv',
          'messages.csv',
          'orders.csv',
          'summary.txt',
          'temperature-readings.csv',
        ]);
        const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
        const lines = (name: string) => text(name).trimEnd().split('\r\n');
        expect(lines('temperature-readings.csv')).toHaveLength(5);
        expect(lines('temperature-readings.csv')[4]).toEndWith(',31,true');
        const orders = lines('orders.csv');
        expect(orders).toHaveLength(3);
        expect(orders[1]).toStartWith(`${s.a.reference},"${s.a.id}",`);
        expect(orders[2]).toContain('Warm, check');
        expect(lines('alarms.csv').map((l) => l.split(',')[2])).toEqual(['"code"', '"MP_0001"', '"EM_0003"']);
        expect(
          lines('messages.csv')
            .slice(1)
            .map((l) => l.split(',')[0]),
        ).toEqual([s.a.reference, s.c.reference, s.c.reference]);
        expect(text('summary.txt')).toContain('Orders inside the machine: 2 (PIN held now: 1)');
        expect(text('summary.txt')).toContain('Temperature excursions: 1');
      });
    }, 30_000);

    it('is for staff who reach the machine: another business is 404, and so is its order', async () => {
      await withBootedLocker(t, async ({ machine }) => {
        const order = await newOrder('SC-1');
        const range = { machineId: machine.id, from: t.deps.now() - HOUR, to: t.deps.now() };
        expect((await t.call('evidence', 'getEvidencePack', range, {})).status).toBe(401);
        // The test pharmacy user holds no role on b1.
        expect((await t.call('evidence', 'getEvidencePack', range, asPharmacy)).status).toBe(404);
        expect((await t.call('evidence', 'downloadEvidencePack', range, asPharmacy)).status).toBe(404);
        const hold = { orderIds: [order.id], reason: 'x' };
        expect((await t.call('evidence', 'holdPins', hold, asPharmacy)).status).toBe(404);
        expect((await t.call('evidence', 'releasePins', hold, asPharmacy)).status).toBe(404);
        // A Business role on b2 only: b1's machine and order stay out of reach; with one on b1, in reach.
        expect((await t.call('evidence', 'getEvidencePack', range, pharmacyOf('b2'))).status).toBe(404);
        expect((await t.call('evidence', 'holdPins', hold, pharmacyOf('b2'))).status).toBe(404);
        expect((await t.call('evidence', 'getEvidencePack', range, pharmacyOf('b1'))).status).toBe(200);
        expect((await t.call('evidence', 'holdPins', hold, pharmacyOf('b1'))).status).toBe(409);
      });
    }, 30_000);

    it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
      await withBootedLocker(t, async ({ machine }) => {
        const now = t.deps.now();
        const pack = (input: Record<string, unknown>) => t.call('evidence', 'getEvidencePack', input, asSupport);
        const reversed = await pack({ machineId: machine.id, from: now, to: now - HOUR });
        expect([reversed.status, reversed.body.error.details[0].id]).toEqual([400, 'INVALID_DATE_RANGE']);
        const long = await pack({ machineId: machine.id, from: now - 32 * 24 * HOUR, to: now });
        expect([long.status, long.body.error.details[0].id]).toEqual([400, 'RANGE_TOO_LONG']);
        expect(long.body.error.message).toBe('An evidence pack covers at most 31 days');
        expect((await pack({ machineId: machine.id, from: now + HOUR, to: now + 2 * HOUR })).status).toBe(400);
        expect((await pack({ machineId: machine.id, from: 'yesterday', to: now })).status).toBe(400);
        expect((await pack({ machineId: machine.id, from: now - HOUR, to: now, extra: 1 })).status).toBe(400);
        expect((await pack({ machineId: 'nope', from: now - HOUR, to: now })).status).toBe(404);
        const empty = await t.call('evidence', 'holdPins', { orderIds: [], reason: 'x' }, asSupport);
        expect(empty.status).toBe(400);
        const order = await newOrder('BI-1');
        const noReason = await t.call('evidence', 'holdPins', { orderIds: [order.id], reason: '' }, asSupport);
        expect(noReason.status).toBe(400);
        expect((await t.call('evidence', 'holdPins', { orderIds: ['nope'], reason: 'x' }, asSupport)).status).toBe(404);
        expect(await codes(order.id)).toEqual(['ORDER_CREATED']);
      });
    }, 30_000);

    it('says in the file when it holds only the first readings of a range with too many', () => {
      const pack = {
        machine: { id: 'm1', name: 'Front', businessId: 'b1', businessName: 'Pharmacy b1' },
        from: 0,
        to: HOUR,
        generatedAt: HOUR,
        temperature: {
          band: { min: 15, max: 25 },
          count: 10,
          min: 20,
          max: 20,
          average: 20,
          outsideCount: 0,
          outside: [],
          excursions: [],
        },
        alarms: [],
        orders: [],
        actions: [],
      };
      const readings = [1, 2, 3].map((i) => ({ created: i * MIN, value: 20 }));
      const files = unzipSync(packZip(pack, readings, 'MedLocker'));
      const summary = strFromU8(files['summary.txt'] ?? new Uint8Array());
      expect(summary).toContain(
        'temperature-readings.csv holds the first 3 of the 10 readings: download a shorter range for the rest',
      );
      const all = strFromU8(
        unzipSync(packZip(pack, [...readings, ...readings, ...readings, readings[0] as never], 'M'))['summary.txt'] ??
          new Uint8Array(),
      );
      expect(all).toContain('Files: temperature-readings.csv (every reading)');
    });

    it('writes CSV cells a spreadsheet cannot run as formulas, however its locale splits them', () => {
      const order = {
        id: 'o1',
        reference: '000042',
        patientName: '=HYPERLINK("x")',
        patientDisplayId: 'P1',
        barcode: 'CSV;=1+1-1796461761303',
        status: 'loaded' as const,
        inAt: MIN,
        outAt: null,
        location: 'A1',
        live: true,
        pinHold: null,
        messages: [],
      };
      const pack = {
        machine: { id: 'm1', name: 'Front', businessId: 'b1', businessName: 'Pharmacy b1' },
        from: 0,
        to: HOUR,
        generatedAt: HOUR,
        temperature: {
          band: { min: 15, max: 25 },
          count: 0,
          min: null,
          max: null,
          average: null,
          outsideCount: 0,
          outside: [],
          excursions: [],
        },
        alarms: [],
        orders: [order],
        actions: [],
      };
      const orders = strFromU8(unzipSync(packZip(pack, [], 'MedLocker'))['orders.csv'] ?? new Uint8Array());
      expect(orders.split('\r\n')[1]).toStartWith(
        `000042,"o1","'=HYPERLINK(""x"")","P1","CSV;'=1+1-1796461761303","loaded","A1",`,
      );
    });
  },
  () => ({ auth: scopedAuth }),
);
