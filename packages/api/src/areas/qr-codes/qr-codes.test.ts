import { expect, it } from 'bun:test';
import { signQrCode } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { qrBusiness } from '../../testing/qr-codes.ts';

const countOrders = async (t: TestApi) =>
  Number(
    (
      await t.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describeApi(
  'orders from QR codes',
  (t) => {
    const scan = (businessId: string, qrCode: string) =>
      t.call('qrCodes', 'createOrder', { businessId, qrCode }, asSupport);

    it('creates the order a signed code names, and gives the same order when it is scanned again', async () => {
      const b = await qrBusiness(t, 'b1');
      const code = await signQrCode(b.key, {
        business: 'b1',
        patient: b.patient.displayId,
        barcode: 'RX-QR-1',
        collectionWindow: 5,
      });
      const first = await scan('b1', `${code}\n`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        existing: false,
        order: {
          barcode: 'RX-QR-1',
          patientId: b.patient.id,
          createdVia: 'qr-code',
          status: 'new',
          collectionWindow: 5,
        },
      });
      const again = await scan('b1', code);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ existing: true, order: { id: first.body.order.id } });
      expect(await countOrders(t)).toBe(1);
      const audit = await listAudit(t.db);
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['qrSigningKey.rotate', 'order.create']));
    });

    it('refuses a forged code, another business’s code or key, an expired code and an unknown patient, changing nothing', async () => {
      const b = await qrBusiness(t, 'b1');
      const other = await qrBusiness(t, 'b2');
      const payload = { business: 'b1', patient: b.patient.displayId, barcode: 'RX-QR-2' };
      const good = await signQrCode(b.key, payload);
      const [head = '', body = ''] = good.split('.');
      const tampered = `${head}.${Buffer.from(JSON.stringify({ ...payload, barcode: 'RX-QR-3' })).toString('base64url')}.${good.split('.')[2]}`;
      const cases: [string, number, string][] = [
        [tampered, 400, 'QR_CODE_SIGNATURE'],
        [await signQrCode(other.key, payload), 400, 'QR_CODE_SIGNATURE'],
        [await signQrCode('mlqr_guessed', payload), 400, 'QR_CODE_SIGNATURE'],
        [await signQrCode(other.key, { ...payload, business: 'b2' }), 400, 'OTHER_BUSINESS'],
        [await signQrCode(b.key, { ...payload, expires: t.deps.now() - 1 }), 400, 'QR_CODE_EXPIRED'],
        [await signQrCode(b.key, { ...payload, patient: 'nobody' }), 400, 'NOT_FOUND'],
        [`${head}.${body}`, 400, 'INVALID_QR_CODE'],
        ['RX-QR-2', 400, 'INVALID_QR_CODE'],
        [`MLQR1.${'%'.repeat(20)}.x`, 400, 'INVALID_QR_CODE'],
        [`MLQR1.${Buffer.from('{"business":1}').toString('base64url')}.${good.split('.')[2]}`, 400, 'INVALID_QR_CODE'],
      ];
      for (const [qrCode, status, id] of cases) {
        const res = await scan('b1', qrCode);
        expect([qrCode, res.status, res.body.error.details?.[0]?.id]).toEqual([qrCode, status, id]);
      }
      expect((await scan('b1', 'x'.repeat(5000))).status).toBe(400);
      expect(await countOrders(t)).toBe(0);
      expect((await scan('b1', good)).status).toBe(200);
    });

    it('refuses codes while the business’s QR-code integration is off, and codes signed with a key made before the last', async () => {
      const b = await qrBusiness(t, 'b1', false);
      const code = await signQrCode(b.key, { business: 'b1', patient: b.patient.displayId, barcode: 'RX-QR-4' });
      const off = await scan('b1', code);
      expect(off.status).toBe(400);
      expect(off.body.error.details[0].id).toBe('NOT_ENABLED');
      expect(off.body.error.message).toBe('QR-code integration is not enabled for this business');
      await t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId: 'b1', settings: { qrCodeIntegration: { enabled: true } } },
        asSupport,
      );
      const rotated = await t.call('qrCodes', 'rotateSigningKey', { businessId: 'b1' }, asSupport);
      expect(rotated.body.key).toMatch(/^mlqr_[A-Za-z0-9_-]{43}$/);
      expect((await scan('b1', code)).body.error.details[0].id).toBe('QR_CODE_SIGNATURE');
      const fresh = await signQrCode(rotated.body.key, {
        business: 'b1',
        patient: b.patient.displayId,
        barcode: 'RX-QR-4',
      });
      expect((await scan('b1', fresh)).status).toBe(200);
      expect(await countOrders(t)).toBe(1);
    });

    it('refuses a scanned barcode another patient’s live order has', async () => {
      const b = await qrBusiness(t, 'b1');
      const other = (await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(2) }, asSupport)).body
        .patient.id;
      await t.call('orders', 'create', { businessId: 'b1', patientId: other, barcode: 'RX-QR-5' }, asSupport);
      const code = await signQrCode(b.key, { business: 'b1', patient: b.patient.displayId, barcode: 'RX-QR-5' });
      const res = await scan('b1', code);
      expect(res.status).toBe(409);
      expect(await countOrders(t)).toBe(1);
    });

    it('says when the key was made and by whom, never the key; keeps it sealed', async () => {
      await seedBusiness(t.db, 'b1');
      expect((await t.call('qrCodes', 'getSigningKey', { businessId: 'b1' }, asSupport)).body).toEqual({ key: null });
      const made = await t.call('qrCodes', 'rotateSigningKey', { businessId: 'b1' }, asSupport);
      const info = await t.call('qrCodes', 'getSigningKey', { businessId: 'b1' }, asSupport);
      expect(info.body.key).toMatchObject({ created: made.body.created });
      expect(JSON.stringify(info.body)).not.toContain(made.body.key);
      const row = await t.db.selectFrom('qr_signing_keys').selectAll().executeTakeFirstOrThrow();
      expect(row.key_sealed).not.toContain(made.body.key.slice(5));
    });
  },
  withTestAuth,
);
