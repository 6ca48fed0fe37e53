import { expect, it } from 'bun:test';
import { signQrCode } from '@medlocker/core';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { eventually, withTestAuth } from '../../api/src/testing/hub.ts';
import { qrBusiness } from '../../api/src/testing/qr-codes.ts';
import { withSimLocker } from './sim-harness.ts';

describeApi(
  'locker-sim scanning QR codes',
  (t) => {
    it('loads a bag from its QR code through the control API: the hub creates and loads its order', async () => {
      const b = await qrBusiness(t, 'b1');
      await withSimLocker(
        t,
        async ({ machineId, sim, step }) => {
          const orders = () => t.db.selectFrom('orders').selectAll().execute();
          expect((await step({ do: 'scanQrCode', qrCode: 'RX-NOT-A-CODE' })).answers).toEqual([{ loaded: false }]);
          const qrCode = await signQrCode(b.key, {
            business: 'b1',
            patient: b.patient.displayId,
            barcode: 'RX-SIM-QR',
          });
          expect((await step({ do: 'scanQrCode', qrCode, location: 'B3' })).answers).toEqual([{ loaded: true }]);
          await eventually(async () => (await orders()).some((o) => o.status === 'loaded'));
          expect((await orders()).map((o) => [o.barcode, o.created_via, o.machine_id, o.status])).toEqual([
            ['RX-SIM-QR', 'qr-code', machineId, 'loaded'],
          ]);
          expect(sim.contents().get('B3')).toBe('RX-SIM-QR');
        },
        { name: 'Scanner', numberOfSlots: 8 },
      );
    }, 30_000);
  },
  withTestAuth,
);
