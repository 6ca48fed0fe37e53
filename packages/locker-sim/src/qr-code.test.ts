import { expect, it } from 'bun:test';
import { signQrCode } from '@medlocker/core';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { asSupport, eventually, listen, withTestAuth } from '../../api/src/testing/hub.ts';
import { qrBusiness } from '../../api/src/testing/qr-codes.ts';
import { startControl } from './control.ts';
import { SimLocker } from './locker.ts';

describeApi(
  'locker-sim scanning QR codes',
  (t) => {
    it('loads a bag from its QR code through the control API: the hub creates and loads its order', async () => {
      const b = await qrBusiness(t, 'b1');
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'Scanner', numberOfSlots: 8 }, asSupport)
      ).body.testMachine;
      const hub = listen(t);
      const sim = new SimLocker({
        api: hub.http,
        index: 1,
        credentials: { machineId: tm.id, ...tm.credentials },
        readingEverySeconds: 3600,
      });
      const control = startControl([sim], 0);
      const step = async (body: Record<string, unknown>) =>
        (
          await fetch(`http://127.0.0.1:${control.port}/lockers/1`, { method: 'POST', body: JSON.stringify(body) })
        ).json();
      const orders = () => t.db.selectFrom('orders').selectAll().execute();
      try {
        await sim.start();
        await eventually(() => sim.status === 'online');
        expect((await step({ do: 'scanQrCode', qrCode: 'RX-NOT-A-CODE' })).answers).toEqual([{ loaded: false }]);
        const qrCode = await signQrCode(b.key, { business: 'b1', patient: b.patient.displayId, barcode: 'RX-SIM-QR' });
        expect((await step({ do: 'scanQrCode', qrCode, location: 'B3' })).answers).toEqual([{ loaded: true }]);
        await eventually(async () => (await orders()).some((o) => o.status === 'loaded'));
        expect((await orders()).map((o) => [o.barcode, o.created_via, o.machine_id, o.status])).toEqual([
          ['RX-SIM-QR', 'qr-code', tm.id, 'loaded'],
        ]);
        expect(sim.contents().get('B3')).toBe('RX-SIM-QR');
      } finally {
        control.stop(true);
        sim.stop();
        hub.stop();
      }
    }, 30_000);
  },
  withTestAuth,
);
