import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import {
  asSupport,
  lockerEvents,
  makeReal,
  type TestLocker,
  withBootedLocker,
  withTestAuth,
} from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { recordExpiredOrders } from './expiry.ts';
import { keypadRule } from './keypad.ts';

const DAY = 86_400_000;

describeApi(
  'orders at the locker',
  (t) => {
    let patients = 0;
    const event = lockerEvents(t);
    const newPatient = async () =>
      (await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(++patients) }, asSupport)).body
        .patient.id as string;
    const newOrder = async (barcode: string, extra: Record<string, unknown> = {}) => {
      const res = await t.call(
        'orders',
        'create',
        { businessId: 'b1', patientId: await newPatient(), barcode, ...extra },
        asSupport,
      );
      expect(res.status).toBe(200);
      return res.body.order as { id: string; status: string };
    };
    const order = async (id: string) => (await t.call('orders', 'get', { id }, asSupport)).body.order;
    const codes = async (id: string) =>
      (await t.call('orders', 'listEvents', { orderId: id }, asSupport)).body.events.map(
        (e: { code: string }) => e.code,
      );
    const pinOf = async (id: string) =>
      (await t.call('orders', 'setRevealPinReason', { id, reason: 'test' }, asSupport)).body.pin as string;
    const verify = async (locker: TestLocker, pin: string) =>
      (await locker.call('VerifyPin', { pin }))[2] as { status: string; retryAfter?: number; location?: string };
    const outbox = (orderId: string) =>
      t.db.selectFrom('message_outbox').selectAll().where('order_id', '=', orderId).orderBy('created').execute();

    it('loads the order of a bag, opens its slot for its PIN, and collects it, each event once', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const o = await newOrder('RX-1');
        const loadedEvent = event({ barcode: 'RX-1', location: 'A3' });
        const loaded = await locker.call('BagLoaded', loadedEvent);
        expect(loaded[2]).toMatchObject({ orderId: o.id });
        expect((await locker.call('BagLoaded', loadedEvent))[2]).toEqual(loaded[2]);
        expect(await order(o.id)).toMatchObject({
          status: 'loaded',
          machineId: machine.id,
          machineSequence: 1,
          expiresAt: t.deps.now() + 2 * DAY,
          machineDetails: { location: 'A3', machineId: machine.id, pin: null },
        });
        const pin = await pinOf(o.id);
        const ready = await outbox(o.id);
        expect(ready.map((m) => [m.template_key, m.channel])).toEqual([['orderReady', 'sms']]);
        // The queued text keeps ${pin} for the sender to fill in: no outbox row holds a PIN.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder as written in the template.
        expect(ready[0]?.body).toContain('${pin}');
        expect(ready[0]?.body).not.toContain(pin);

        expect(await verify(locker, pin === '00000000' ? '00000001' : '00000000')).toEqual({ status: 'Invalid' });
        const accepted = await verify(locker, pin);
        expect(accepted).toMatchObject({ status: 'Accepted', location: 'A3', barcode: 'RX-1' });

        const collectedEvent = event({ barcode: 'RX-1', location: 'A3' });
        expect((await locker.call('BagCollected', collectedEvent))[2]).toMatchObject({ orderId: o.id });
        await locker.call('BagCollected', collectedEvent);
        expect(await order(o.id)).toMatchObject({ status: 'collected', collected: t.deps.now() });
        expect(await codes(o.id)).toEqual([
          'ORDER_CREATED',
          'ORDER_LOADED',
          'PIN_REVEALED',
          'PIN_ACCEPTED',
          'ORDER_COLLECTED',
        ]);
        expect((await outbox(o.id)).map((m) => m.template_key)).toEqual(['orderReady', 'orderCollected']);
        // Collected: the PIN opens nothing any more.
        expect(await verify(locker, pin)).toEqual({ status: 'Invalid' });
      });
    }, 30_000);

    it('refuses an expired PIN and one whose charges need paying first', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const o = await newOrder('RX-2');
        await locker.call('BagLoaded', event({ barcode: 'RX-2', location: 'B1' }));
        const pin = await pinOf(o.id);
        await t.db.updateTable('orders').set({ payment_status: 'unpaid', machine_payment: true }).execute();
        expect(await verify(locker, pin)).toEqual({ status: 'PaymentRequired' });
        t.advance(2 * DAY);
        expect(await verify(locker, pin)).toEqual({ status: 'Expired' });
        const reveal = await t.call('orders', 'setRevealPinReason', { id: o.id, reason: 'late' }, asSupport);
        expect([reveal.status, reveal.body.error.code]).toEqual([409, 'INVALID_TRANSITION']);
        expect((await t.call('orders', 'markRemoved', { id: o.id }, asSupport)).status).toBe(200);
      });
    }, 30_000);

    it('slows a burst of wrong PINs instead of locking the keypad: the next patient waits seconds, not ten minutes', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const o = await newOrder('RX-3');
        await locker.call('BagLoaded', event({ barcode: 'RX-3', location: 'C1' }));
        const pin = await pinOf(o.id);
        const wrong = pin === '99999999' ? '99999998' : '99999999';
        // Sent at once: only the free tries are checked; every other waits its turn.
        const answers = await Promise.all(Array.from({ length: 13 }, () => verify(locker, wrong)));
        expect(answers.filter((a) => a.status === 'Invalid')).toHaveLength(keypadRule.freeTries);
        expect(answers.filter((a) => a.status === 'LockedOut')).toHaveLength(13 - keypadRule.freeTries);
        // The patient who comes next waits the first delay only.
        const waiting = await verify(locker, pin);
        expect(waiting).toEqual({ status: 'LockedOut', retryAfter: keypadRule.firstDelayMs / 1000 });
        t.advance(keypadRule.firstDelayMs);
        expect(await verify(locker, pin)).toMatchObject({ status: 'Accepted' });
        const tries = await t.db.selectFrom('pin_attempts').select('outcome').execute();
        expect(tries).toHaveLength(15);
        expect(tries.filter((r) => r.outcome === 'wrong')).toHaveLength(keypadRule.freeTries);
      });
    }, 30_000);

    it('makes a guesser wait twice as long each time, never more than two minutes, and tells staff once', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        await makeReal(t, machine.id);
        await t.db
          .updateTable('businesses')
          .set({ notification_emails: ['alerts@pharmacy.test'] })
          .execute();
        const o = await newOrder('RX-4');
        await locker.call('BagLoaded', event({ barcode: 'RX-4', location: 'C2' }));
        const pin = await pinOf(o.id);
        const wrong = pin === '99999999' ? '99999998' : '99999999';
        const waits: number[] = [];
        for (let tried = 0; tried < 15; ) {
          const answer = await verify(locker, wrong);
          if (answer.status === 'LockedOut') {
            waits.push(answer.retryAfter ?? 0);
            t.advance((answer.retryAfter ?? 0) * 1000);
          } else {
            expect(answer).toEqual({ status: 'Invalid' });
            tried++;
          }
        }
        expect(waits).toEqual([5, 10, 20, 40, 80, 120, 120, 120, 120, 120]);
        const alerts = await t.db.selectFrom('notifications').select(['title', 'body', 'level']).execute();
        expect(alerts).toEqual([
          {
            title: 'Possible PIN guessing: Locker 1',
            body: expect.stringContaining('10 wrong PINs have been typed at Locker 1'),
            level: 'warn',
          },
        ]);
        const events = await t.db
          .selectFrom('machine_events')
          .select('code')
          .where('machine_id', '=', machine.id)
          .execute();
        expect(events.filter((e) => e.code === 'MP_0008')).toHaveLength(1);
        const mail = await t.db.selectFrom('message_outbox').select(['recipient', 'template_key']).execute();
        expect(mail.filter((m) => m.template_key === 'alarm.MP_0008')).toEqual([
          { recipient: 'alerts@pharmacy.test', template_key: 'alarm.MP_0008' },
        ]);
        // The patient after them: at most the ceiling, then their PIN opens the slot.
        const next = await verify(locker, pin);
        expect(next.status).toBe('LockedOut');
        expect(next.retryAfter).toBeLessThanOrEqual(keypadRule.maxDelayMs / 1000);
        t.advance((next.retryAfter ?? 0) * 1000);
        expect(await verify(locker, pin)).toMatchObject({ status: 'Accepted', location: 'C2' });
      });
    }, 60_000);

    it('matches a bag loaded before its order existed when the order is created', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const early = await locker.call('BagLoaded', event({ barcode: 'EARLY', location: 'D2' }));
        expect(early[2]).toMatchObject({ orderId: null });
        const o = await newOrder('EARLY');
        expect(o).toMatchObject({ status: 'loaded', machineId: machine.id });
        expect(await codes(o.id)).toEqual(['ORDER_CREATED', 'ORDER_LOADED']);
        expect(await verify(locker, await pinOf(o.id))).toMatchObject({ status: 'Accepted', location: 'D2' });
      });
    }, 30_000);

    it('removes a loaded order when staff take its bag out, and records a bag leaving a cancelled order', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const a = await newOrder('RM-1');
        await locker.call('BagLoaded', event({ barcode: 'RM-1', location: 'E1' }));
        await locker.call('BagRemoved', event({ barcode: 'RM-1', reason: 'staff' }));
        expect((await order(a.id)).status).toBe('removed');
        expect((await outbox(a.id)).map((m) => m.template_key)).toEqual(['orderReady', 'orderRemoved']);

        const b = await newOrder('RM-2');
        await locker.call('BagLoaded', event({ barcode: 'RM-2', location: 'E2' }));
        await t.call('orders', 'cancel', { id: b.id, reason: 'Changed prescription' }, asSupport);
        await locker.call('BagCollected', event({ barcode: 'RM-2', location: 'E2' }));
        expect((await order(b.id)).status).toBe('cancelled');
        expect(await codes(b.id)).toEqual(['ORDER_CREATED', 'ORDER_LOADED', 'ORDER_CANCELLED', 'LOCKER_BAG_COLLECTED']);
        // The same bag put back in after its order was cancelled: recorded, never refused (the locker
        // would keep sending it), and the order stays cancelled.
        const again = await locker.call('BagLoaded', event({ barcode: 'RM-2', location: 'E3' }));
        expect(again[0]).toBe(3);
        expect((await order(b.id)).status).toBe('cancelled');
        expect((await codes(b.id)).at(-1)).toBe('LOCKER_BAG_LOADED');
        // A new order for the same barcode: the bag, reused, now belongs to it.
        await locker.call('BagRemoved', event({ barcode: 'RM-2', reason: 'staff' }));
        const c = await newOrder('RM-2');
        const reused = await locker.call('BagLoaded', event({ barcode: 'RM-2', location: 'E4' }));
        expect(reused[2]).toMatchObject({ orderId: c.id });
        expect((await order(c.id)).status).toBe('loaded');
      });
    }, 30_000);

    it('records each expiry once, whoever sweeps, and leaves the order loaded and removable', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const a = await newOrder('EX-1');
        const b = await newOrder('EX-2');
        await locker.call('BagLoaded', event({ barcode: 'EX-1', location: 'F1' }));
        t.advance(DAY);
        await locker.call('BagLoaded', event({ barcode: 'EX-2', location: 'F2' }));
        t.advance(DAY);
        // a's window (2 days) has passed; b's has a day to go.
        const swept = await Promise.all([recordExpiredOrders(t.deps), recordExpiredOrders(t.deps)]);
        expect(swept.reduce((x, y) => x + y, 0)).toBe(1);
        expect(await recordExpiredOrders(t.deps)).toBe(0);
        expect(await codes(a.id)).toEqual(['ORDER_CREATED', 'ORDER_LOADED', 'ORDER_EXPIRED']);
        expect(await codes(b.id)).toEqual(['ORDER_CREATED', 'ORDER_LOADED']);
        expect((await order(a.id)).status).toBe('loaded');
        const expired = await t.call(
          'orders',
          'listOrdersByBusiness',
          { businessId: 'b1', statusCode: 'expired' },
          asSupport,
        );
        expect(expired.body.orders.map((o: { id: string }) => o.id)).toEqual([a.id]);
        await locker.call('BagRemoved', event({ barcode: 'EX-1', reason: 'expired' }));
        expect((await order(a.id)).status).toBe('removed');
      });
    }, 30_000);
  },
  withTestAuth,
);
