import { expect } from 'bun:test';
import type { AppError, OrderStatus } from '@medlocker/core';
import { createOrder } from '../areas/orders/create.ts';
import { type Actor, systemActor } from '../context/actor.ts';
import type { TestApi } from './api.ts';
import { asSupport } from './hub.ts';
import { insertBusiness, testPatient } from './patients.ts';

export const judoAccount = { token: 'tok-judo-pharmacy-1', secret: 'sec-judo-pharmacy-1' };
export const JUDO_ID = '100200300';
export const webhookAuth = { user: 'judo-webhook-user', password: 'judo-webhook-password' };

/**
 * A business taking card payments (prescription and retail charges on, Judopay settings saved through
 * the API with the fake's credentials) with one patient.
 */
export async function chargingBusiness(
  t: TestApi,
  options: {
    sandbox?: boolean;
    judo?: boolean;
    /** The card toggles (all on unless given). */
    cards?: Partial<{ showVisa: boolean; showAmex: boolean; showMastercard: boolean }>;
    /** Patient contact overrides (e.g. no email). */
    patient?: Parameters<typeof testPatient>[1];
  } = {},
) {
  const businessId = await insertBusiness(t.db);
  await t.db
    .insertInto('business_feature_settings')
    .values({
      business_id: businessId,
      settings: JSON.stringify({ charges: { enabled: true }, retailCharges: { enabled: true } }),
      updated: 1,
    })
    .execute();
  if (options.judo !== false) {
    const saved = await t.call(
      'paymentSettings',
      'updatePaymentSettings',
      {
        businessId,
        contactNumber: '0121 496 0000',
        legalInfo: 'High St Pharmacy Ltd',
        provider: 'judo',
        judo: {
          id: JUDO_ID,
          sandbox: options.sandbox ?? true,
          ...judoAccount,
          showVisa: true,
          showAmex: true,
          showMastercard: true,
          ...options.cards,
        },
      },
      asSupport,
    );
    expect(saved.status).toBe(200);
  }
  const patient = await t.call(
    'patients',
    'create',
    { businessId, patient: testPatient(1, options.patient) },
    asSupport,
  );
  expect(patient.status).toBe(200);
  return { businessId, patientId: patient.body.patient.id as string };
}

let barcodes = 0;

/** An order of the business's patient, £9.90 prescription + £2.00 retail unless told otherwise. */
export async function chargedOrder(
  t: TestApi,
  estate: { businessId: string; patientId: string },
  charges: { prescriptionCharge?: number; retailCharge?: number } = { prescriptionCharge: 990, retailCharge: 200 },
) {
  const row = await createOrder(t.deps, systemActor('test'), {
    businessId: estate.businessId,
    patientId: estate.patientId,
    barcode: `RX-${++barcodes}`,
    ...charges,
  });
  return row.id;
}

/** The patient of the estate, as the patient page's session will name them. */
export const patientActor = (estate: { businessId: string; patientId: string }): Actor => ({
  kind: 'patient',
  patientId: estate.patientId,
  businessId: estate.businessId,
  origin: { via: 'test', requestId: 'r-1', ip: null, userAgent: null },
});

/** Puts an order straight into a state, as the locker or staff would have moved it. */
export const setState = (t: TestApi, id: string, status: OrderStatus, expiresAt: number | null = null) =>
  t.db.updateTable('orders').set({ status, expires_at: expiresAt }).where('id', '=', id).execute();

/** The AppError a call threw (fails the test when it resolved). */
export async function refusal(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if ((error as Error).name !== 'AppError') throw error;
    return error as AppError;
  }
  throw new Error('the call was not refused');
}

export const orderRow = (t: TestApi, id: string) =>
  t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const eventsOf = async (t: TestApi, orderId: string) =>
  (
    await t.db
      .selectFrom('order_events')
      .select(['code', 'message'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute()
  ).filter((e) => e.code !== 'ORDER_CREATED');

export const attemptsOf = (t: TestApi, orderId: string) =>
  t.db.selectFrom('payment_attempts').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
