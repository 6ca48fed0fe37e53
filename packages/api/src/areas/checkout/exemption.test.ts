import { expect, it } from 'bun:test';
import { DeclareExemptionInput, exemptionMEndsAt, fieldErrorsOf, isArkErrors } from '@medlocker/core';
import { describeApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import {
  chargedOrder,
  chargingBusiness,
  eventsOf,
  orderRow,
  patientActor,
  refusal,
  setState,
} from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { declareExemption } from './exemption.ts';
import { createJudoPaymentSession } from './service.ts';

const signature = dataUrl('image/png', pngBytes(2048));

describeApi(
  'checkout: NHS exemption declarations',
  (t) => {
    async function unpaid() {
      const estate = await chargingBusiness(t, { judo: false });
      const orderId = await chargedOrder(t, estate, { prescriptionCharge: 990 });
      return { estate, orderId, patient: patientActor(estate) };
    }
    const declaration = (orderId: string, extra: Record<string, unknown> = {}) => ({
      orderId,
      exemptionCode: 'F' as const,
      nameOfDeclarant: 'Sam Patient',
      onBehalfOfPatient: false,
      signature,
      ...extra,
    });

    it('declares exemption F: the order is exemption_declared with the declaration, and the timeline says who', async () => {
      const { orderId, patient } = await unpaid();
      const { order } = await declareExemption(t.deps, patient, declaration(orderId));
      expect(order).toMatchObject({
        paymentStatus: 'exemption_declared',
        exemptionCode: 'F',
        exemptionDetails: { nameOfDeclarant: 'Sam Patient', onBehalfOfPatient: false, signature },
        amountPaid: 0,
      });
      const events = await eventsOf(t, orderId);
      expect(events).toEqual([
        {
          code: 'EXEMPTION_DECLARED',
          message: 'Exemption F (prescription prepayment certificate) declared by Sam Patient',
        },
      ]);
    });

    it('gives staff the signature on orders/get only: lists leave it out; the timeline names the patient page', async () => {
      const { orderId, patient, estate } = await unpaid();
      await declareExemption(t.deps, patient, declaration(orderId));
      const got = await t.call('orders', 'get', { id: orderId }, asSupport);
      expect(got.body.order.exemptionDetails).toEqual({
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
        declaredAt: t.deps.now(),
      });
      const lists = [
        await t.call('orders', 'listOrdersByBusiness', { businessId: estate.businessId }, asSupport),
        await t.call('orders', 'listOrdersByPatient', { patientId: estate.patientId }, asSupport),
        await t.call('orders', 'findOrders', { text: (await orderRow(t, orderId)).barcode }, asSupport),
      ];
      for (const list of lists) {
        expect(list.status).toBe(200);
        const listed = list.body.orders.find((o: { id: string }) => o.id === orderId);
        expect(listed?.exemptionDetails).toEqual({
          nameOfDeclarant: 'Sam Patient',
          onBehalfOfPatient: false,
          signature: null,
          declaredAt: t.deps.now(),
        });
        expect(JSON.stringify(list.body)).not.toContain(signature.slice(30, 90));
      }
      const events = await t.call('orders', 'listEvents', { orderId }, asSupport);
      expect(events.body.events.at(-1)?.data).toMatchObject({ via: 'patient', exemptionCode: 'F' });
    });

    it('records a representative declaring on the patient’s behalf', async () => {
      const { orderId, patient } = await unpaid();
      await declareExemption(
        t.deps,
        patient,
        declaration(orderId, { exemptionCode: 'A', nameOfDeclarant: '  Alex Carer ', onBehalfOfPatient: true }),
      );
      expect((await eventsOf(t, orderId))[0]?.message).toBe(
        'Exemption A (aged 60 or over, or under 16) declared by Alex Carer, on behalf of the patient',
      );
      const row = await orderRow(t, orderId);
      expect(row.exemption_details).toMatchObject({ nameOfDeclarant: 'Alex Carer', onBehalfOfPatient: true });
    });

    it('refuses M on or after 6 April 2025 and accepts it the day before', async () => {
      const { orderId, patient } = await unpaid();
      const error = await refusal(declareExemption(t.deps, patient, declaration(orderId, { exemptionCode: 'M' })));
      expect(error).toMatchObject({ code: 'VALIDATION', status: 400 });
      expect(error.details).toEqual([
        {
          path: 'exemptionCode',
          id: 'INVALID_EXEMPTION_CODE',
          message: 'Tax Credit exemption certificates (M) cannot be declared on or after 6 April 2025',
        },
      ]);
      expect((await orderRow(t, orderId)).payment_status).toBe('unpaid');
      t.advance(exemptionMEndsAt - t.deps.now()); // 00:00 on 6 April 2025 in London (BST)
      expect(
        (await refusal(declareExemption(t.deps, patient, declaration(orderId, { exemptionCode: 'M' })))).code,
      ).toBe('VALIDATION');
      t.advance(-1);
      const { order } = await declareExemption(t.deps, patient, declaration(orderId, { exemptionCode: 'M' }));
      expect(order.exemptionCode).toBe('M');
    });

    it('accepts W and tells staff it covers HRT items only', async () => {
      const { orderId, patient } = await unpaid();
      await declareExemption(t.deps, patient, declaration(orderId, { exemptionCode: 'W' }));
      expect((await eventsOf(t, orderId))[0]?.message).toBe(
        'Exemption W (HRT prescription prepayment certificate) declared by Sam Patient: valid for HRT items only',
      );
    });

    it('refuses a signature that is not a PNG or JPEG image, or over 64 KB, changing nothing', async () => {
      const { orderId, patient } = await unpaid();
      const cases: [string, string][] = [
        ['a drawing', 'INVALID_FORMAT'],
        [dataUrl('image/gif', pngBytes(100)), 'INVALID_FORMAT'],
        [`data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`, 'unacceptable-extension'],
        [dataUrl('image/png', pngBytes(70 * 1024)), 'unacceptable-size'],
      ];
      for (const [bad, id] of cases) {
        const error = await refusal(declareExemption(t.deps, patient, declaration(orderId, { signature: bad })));
        expect(error.code).toBe('VALIDATION');
        expect(error.details?.map((d) => [d.path, d.id])).toEqual([['signature', id]]);
      }
      const big = await refusal(
        declareExemption(
          t.deps,
          patient,
          declaration(orderId, { signature: dataUrl('image/png', pngBytes(70 * 1024)) }),
        ),
      );
      expect(big.details?.[0]?.message).toBe('Only files under 64 KB are accepted, your file has 70 KB.');
      expect(await orderRow(t, orderId)).toMatchObject({ payment_status: 'unpaid', exemption_code: null });
      expect(await eventsOf(t, orderId)).toEqual([]);
    });

    it('answers 404 at /hooks/judopay when no webhook credential is configured', async () => {
      const res = await t.raw('/hooks/judopay', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'content=%7B%7D',
      });
      expect(res.status).toBe(404);
    });

    it('checks the declaration’s fields with SPEC §5’s ids', () => {
      const bad = DeclareExemptionInput({
        orderId: 'o1',
        exemptionCode: 'Z',
        nameOfDeclarant: ' ',
        onBehalfOfPatient: 'yes',
        signature: '',
      });
      expect(isArkErrors(bad)).toBe(true);
      if (!isArkErrors(bad)) return;
      expect(fieldErrorsOf(bad).map((e) => [e.path, e.id])).toEqual([
        ['exemptionCode', 'INVALID_EXEMPTION_CODE'],
        ['nameOfDeclarant', 'REQUIRED'],
        ['onBehalfOfPatient', 'INVALID_BOOLEAN'],
        ['signature', 'REQUIRED'],
      ]);
    });

    it('refuses an order that is paid, declared, not charged, not live, or another patient’s', async () => {
      const { estate, orderId, patient } = await unpaid();
      await declareExemption(t.deps, patient, declaration(orderId));
      expect(
        (await refusal(declareExemption(t.deps, patient, declaration(orderId, { exemptionCode: 'E' })))).message,
      ).toBe('An exemption has been declared for this order: there is nothing to pay');
      expect((await refusal(createJudoPaymentSession(t.deps, patient, { orderId }))).code).toBe('CONFLICT');
      expect((await orderRow(t, orderId)).exemption_code).toBe('F');

      const free = await chargedOrder(t, estate, {});
      expect((await refusal(declareExemption(t.deps, patient, declaration(free)))).message).toBe(
        'This order has no charge to pay',
      );
      const paid = await chargedOrder(t, estate);
      await t.db.updateTable('orders').set({ payment_status: 'paid' }).where('id', '=', paid).execute();
      expect((await refusal(declareExemption(t.deps, patient, declaration(paid)))).message).toBe(
        'This order is paid already',
      );
      const cancelled = await chargedOrder(t, estate);
      await setState(t, cancelled, 'cancelled');
      expect((await refusal(declareExemption(t.deps, patient, declaration(cancelled)))).code).toBe('CONFLICT');
      const other = await chargedOrder(t, estate);
      const stranger = patientActor({ businessId: estate.businessId, patientId: 'another-patient' });
      expect((await refusal(declareExemption(t.deps, stranger, declaration(other)))).code).toBe('NOT_FOUND');
      expect((await orderRow(t, other)).payment_status).toBe('unpaid');
    });
  },
  withTestAuth,
);
