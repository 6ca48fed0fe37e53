import { expect, it } from 'bun:test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the API's harness gives a business with QR-code integration and its key.
import { asSupport, withTestAuth } from '../../../api/src/testing/hub.ts';
import { qrBusiness } from '../../../api/src/testing/qr-codes.ts';
import { cliHarness } from '../test-harness.ts';

describeApi(
  'medlocker orders qr-sign',
  (t) => {
    const { cli, dir } = cliHarness(t);

    it('prints a QR code, signed offline with the key in a file, that the console scan turns into the order', async () => {
      const b = await qrBusiness(t, 'b1');
      const keyFile = join(dir(), 'qr.key');
      await writeFile(keyFile, `${b.key}\n`);
      const args = ['orders', 'qr-sign', '--key-file', keyFile, '--business', 'b1', '--patient', b.patient.displayId];
      const res = await cli([...args, '--barcode', 'RX-CLI-QR', '--window', '4', '--expires', '2099-12-31']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      const qrCode = res.stdout.trim();
      expect(qrCode).toMatch(/^MLQR1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      const scanned = await t.call('qrCodes', 'createOrder', { businessId: 'b1', qrCode }, asSupport);
      expect(scanned.status).toBe(200);
      expect(scanned.body.order).toMatchObject({ barcode: 'RX-CLI-QR', createdVia: 'qr-code', collectionWindow: 4 });

      const badWindow = await cli([...args, '--barcode', 'RX-CLI-2', '--window', '0']);
      expect(badWindow.code).not.toBe(0);
      expect(badWindow.stderr).toContain('--window is 1 to 90 days');
      await writeFile(keyFile, 'not a key');
      const badKey = await cli([...args, '--barcode', 'RX-CLI-3']);
      expect(badKey.stderr).toContain('holds no QR signing key');
    });
  },
  withTestAuth,
);
