import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { systemActor } from '../../context/actor.ts';
import { describeApi } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness, orderRow, patientActor, refusal } from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { declareExemption } from '../checkout/exemption.ts';
import { createOrder } from '../orders/create.ts';

/** 1×1 transparent PNG, as a drawn signature. */
const signature =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describeApi(
  'business settings: where the pharmacy is, and prescription charges',
  (t) => {
    const update = (businessId: string, settings: Record<string, unknown>) =>
      t.call('businessSettings', 'updateBusinessFeatureSettings', { businessId, settings }, asSupport);
    const read = async (businessId: string) =>
      (await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId }, asSupport)).body.settings;

    it('is England until set; outside England prescription charges are off and cannot be switched on', async () => {
      const { businessId } = await chargingBusiness(t, { judo: false });
      expect(await read(businessId)).toMatchObject({ nation: 'england', charges: { enabled: true } });

      const wales = await update(businessId, { nation: 'wales' });
      expect(wales.status).toBe(200);
      expect(wales.body.settings).toMatchObject({ nation: 'wales', charges: { enabled: false } });
      expect(wales.body.settings.retailCharges).toEqual({ enabled: true });

      const on = await update(businessId, { charges: { enabled: true } });
      expect(on.status).toBe(400);
      expect(on.body.error.details).toEqual([
        {
          path: 'settings.charges.enabled',
          id: 'NOT_ENABLED',
          message: 'There are no NHS prescription charges in Wales: prescription charges cannot be switched on',
        },
      ]);
      const both = await update(businessId, { nation: 'northernIreland', charges: { enabled: true } });
      expect(both.status).toBe(400);
      expect(await read(businessId)).toMatchObject({ nation: 'wales', charges: { enabled: false } });

      const unknown = await update(businessId, { nation: 'france' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.details[0]).toMatchObject({
        path: 'settings.nation',
        message: 'Choose England, Wales, Scotland or Northern Ireland',
      });

      // Back in England the charges are the pharmacy's to switch on again.
      expect((await update(businessId, { nation: 'england', charges: { enabled: true } })).body.settings).toMatchObject(
        {
          nation: 'england',
          charges: { enabled: true },
        },
      );
    });

    it('will not move a pharmacy out of England while a live order still asks a prescription charge', async () => {
      const estate = await chargingBusiness(t, { judo: false });
      const orderId = await chargedOrder(t, estate);
      const res = await update(estate.businessId, { nation: 'scotland' });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(
        '1 live order still asks a prescription charge: settle or cancel it before moving the pharmacy to Scotland',
      );
      expect((await read(estate.businessId)).nation).toBe('england');
      await t.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', orderId).execute();
      expect((await update(estate.businessId, { nation: 'scotland' })).status).toBe(200);
    });

    it('lets a pharmacy move once the prescription charge is declared exempt, even with a retail charge still owed', async () => {
      const estate = await chargingBusiness(t, { judo: false });
      const orderId = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      expect((await update(estate.businessId, { nation: 'wales' })).status).toBe(409);
      await declareExemption(t.deps, patientActor(estate), {
        orderId,
        exemptionCode: 'F',
        nameOfDeclarant: 'Given1 Family1',
        onBehalfOfPatient: false,
        signature,
      });
      expect((await orderRow(t, orderId)).payment_status).toBe('unpaid');
      expect((await update(estate.businessId, { nation: 'wales' })).status).toBe(200);
    });

    it('refuses a charged order whose create read England while a move to Wales was committing', async () => {
      // PGlite runs one transaction at a time, so the two cannot overlap there; PostgreSQL runs them at once.
      if (t.kind !== 'postgres') return;
      const estate = await chargingBusiness(t, { judo: false });
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written = () => {};
      const moved = new Promise<void>((resolve) => {
        written = resolve;
      });
      // A move out of England caught between its write and its commit: the business row locked (as
      // updateBusinessFeatureSettings locks it), no live charged order yet, the nation written.
      const move = t.db.transaction().execute(async (tx) => {
        await tx.selectFrom('businesses').select('id').where('id', '=', estate.businessId).forUpdate().execute();
        await tx
          .updateTable('business_feature_settings')
          .set({
            settings: JSON.stringify({
              nation: 'wales',
              charges: { enabled: false },
              retailCharges: { enabled: true },
            }),
          })
          .where('business_id', '=', estate.businessId)
          .execute();
        written();
        await released;
      });
      await moved;
      // The create reads the settings committed so far (England, charges on) and goes on to insert.
      const create = createOrder(t.deps, systemActor('test'), {
        businessId: estate.businessId,
        patientId: estate.patientId,
        barcode: 'RX-RACE-1',
        prescriptionCharge: 990,
      }).then(
        (row) => ({ row, error: null }),
        (error: unknown) => ({ row: null, error }),
      );
      // Its insert waits for the business row (the order's foreign key); then the move commits.
      const insertWaits = async () => {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
        return (waiting.rows[0]?.n ?? 0) > 0;
      };
      const until = Date.now() + 5000;
      while (!(await insertWaits())) {
        if (Date.now() > until) throw new Error('the create never reached its insert');
        await Bun.sleep(10);
      }
      release();
      await move;
      const { row, error } = await create;
      expect(row).toBeNull();
      expect(error).toMatchObject({ code: 'VALIDATION' });
      expect((error as { details?: unknown[] }).details).toEqual([
        {
          path: 'prescriptionCharge',
          id: 'NOT_ENABLED',
          message: 'There are no NHS prescription charges in Wales: leave the prescription charge empty',
        },
      ]);
      const orders = await t.db
        .selectFrom('orders')
        .select('id')
        .where('business_id', '=', estate.businessId)
        .execute();
      expect(orders).toEqual([]);
    });

    it('never gives an order in Wales a prescription charge: nothing to pay is not_required', async () => {
      const estate = await chargingBusiness(t, { judo: false });
      expect((await update(estate.businessId, { nation: 'wales' })).status).toBe(200);
      const create = (charges: { prescriptionCharge?: number; retailCharge?: number }) =>
        createOrder(t.deps, systemActor('test'), {
          businessId: estate.businessId,
          patientId: estate.patientId,
          barcode: `RX-W-${Math.random().toString(36).slice(2)}`,
          ...charges,
        });
      const refused = await refusal(create({ prescriptionCharge: 990 }));
      expect(refused).toMatchObject({ code: 'VALIDATION' });
      expect(refused.details).toEqual([
        {
          path: 'prescriptionCharge',
          id: 'NOT_ENABLED',
          message: 'There are no NHS prescription charges in Wales: leave the prescription charge empty',
        },
      ]);
      const free = await create({});
      expect(free).toMatchObject({ paymentStatus: 'not_required', prescriptionCharge: 0 });
      const retail = await create({ retailCharge: 350 });
      expect(retail.paymentStatus).toBe('unpaid');

      // A retail charge is not an NHS charge: an exemption cannot waive it.
      const declared = await refusal(
        declareExemption(t.deps, patientActor(estate), {
          orderId: retail.id,
          exemptionCode: 'F',
          nameOfDeclarant: 'Given1 Family1',
          onBehalfOfPatient: false,
          signature,
        }),
      );
      expect(declared).toMatchObject({ code: 'CONFLICT' });
      expect(declared.details?.[0]?.id).toBe('NO_PRESCRIPTION_CHARGE');
      expect((await orderRow(t, retail.id)).payment_status).toBe('unpaid');
    });
  },
  withTestAuth,
);
