import { expect, it } from 'bun:test';
import { signQrCode } from '@medlocker/core';
import { describeApi } from '../../testing/api.ts';
import { asSupport, lockerEvents, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { qrBusiness } from '../../testing/qr-codes.ts';

describeApi(
  'a locker loading a bag with a QR code',
  (t) => {
    const event = lockerEvents(t);
    const ordersWith = (barcode: string) =>
      t.db.selectFrom('orders').selectAll().where('barcode', '=', barcode).execute();

    it('creates the order the code names and loads it, once however often the event is sent', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const b = await qrBusiness(t, 'b1');
        const qrCode = await signQrCode(b.key, { business: 'b1', patient: b.patient.displayId, barcode: 'RX-L1' });
        const loaded = event({ barcode: 'RX-L1', location: 'B2', qrCode });
        const answer = await locker.call('BagLoaded', loaded);
        expect(answer[0]).toBe(3);
        expect(answer[2]).toMatchObject({ qrCode: { status: 'Created' } });
        expect((await locker.call('BagLoaded', loaded))[2]).toEqual(answer[2]);
        const orders = await ordersWith('RX-L1');
        expect(orders.map((o) => [o.status, o.created_via, o.machine_id, o.patient_id])).toEqual([
          ['loaded', 'qr-code', machine.id, b.patient.id],
        ]);
        expect((answer[2] as { orderId: string }).orderId).toBe(orders[0]?.id as string);
        const events = await t.call('orders', 'listEvents', { orderId: orders[0]?.id }, asSupport);
        expect(events.body.events.map((e: { code: string }) => e.code)).toEqual(['ORDER_CREATED', 'ORDER_LOADED']);
        const ready = await t.db
          .selectFrom('message_outbox')
          .selectAll()
          .where('order_id', '=', orders[0]?.id as string)
          .execute();
        expect(ready.map((m) => m.template_key)).toEqual(['orderReady']);
        // The bag moved to another slot, its code read again: the same order moves, none is added.
        const moved = await locker.call('BagLoaded', event({ barcode: 'RX-L1', location: 'C1', qrCode }));
        expect(moved[2]).toMatchObject({ orderId: orders[0]?.id, qrCode: { status: 'Matched' } });
        expect(await ordersWith('RX-L1')).toHaveLength(1);
      });
    });

    it('keeps the bag without an order and says why when the code is refused', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const b = await qrBusiness(t, 'b1', false);
        const qrCode = await signQrCode(b.key, { business: 'b1', patient: b.patient.displayId, barcode: 'RX-L2' });
        const off = await locker.call('BagLoaded', event({ barcode: 'RX-L2', location: 'A1', qrCode }));
        expect(off[2]).toMatchObject({
          orderId: null,
          qrCode: { status: 'Refused', reason: 'QR-code integration is not enabled for this business' },
        });
        await t.call(
          'businessSettings',
          'updateBusinessControlledSettings',
          { businessId: 'b1', settings: { qrCodeIntegration: { enabled: true } } },
          asSupport,
        );
        const forged = await signQrCode('mlqr_forged', {
          business: 'b1',
          patient: b.patient.displayId,
          barcode: 'RX-L3',
        });
        const refused = await locker.call('BagLoaded', event({ barcode: 'RX-L3', location: 'A2', qrCode: forged }));
        expect(refused[2]).toMatchObject({ orderId: null, qrCode: { status: 'Refused' } });
        const otherBag = await locker.call('BagLoaded', event({ barcode: 'RX-L4', location: 'A3', qrCode }));
        expect(otherBag[2]).toMatchObject({
          orderId: null,
          qrCode: { status: 'Refused', reason: 'This QR code is for the barcode RX-L2, not RX-L4' },
        });
        const garbage = await locker.call('BagLoaded', event({ barcode: 'RX-L5', location: 'A4', qrCode: 'hello' }));
        expect(garbage[2]).toMatchObject({ orderId: null, qrCode: { status: 'Refused' } });
        expect(await t.db.selectFrom('orders').selectAll().execute()).toHaveLength(0);
        expect(await t.db.selectFrom('bags').select('barcode').orderBy('barcode').execute()).toHaveLength(4);
        // The business switched it on: the first bag's code now makes its order when the bag is loaded again.
        const later = await locker.call('BagLoaded', event({ barcode: 'RX-L2', location: 'A1', qrCode }));
        expect(later[2]).toMatchObject({ qrCode: { status: 'Created' } });
        expect((await ordersWith('RX-L2')).map((o) => o.status)).toEqual(['loaded']);
      });
    });
  },
  withTestAuth,
);
