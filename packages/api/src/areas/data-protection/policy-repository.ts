import {
  defaultRetentionPolicy,
  type RetentionField,
  type RetentionOverrides,
  type RetentionPolicy,
} from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

type PolicyColumns<T> = {
  order_days: T;
  patient_years: T;
  temperature_days: T;
  audit_days: T;
  delivery_days: T;
};

function fromRow<T extends number | null>(row: PolicyColumns<T>) {
  return {
    orderDays: row.order_days,
    patientYears: row.patient_years,
    temperatureDays: row.temperature_days,
    auditDays: row.audit_days,
    deliveryDays: row.delivery_days,
  };
}

function toColumns<T extends number | null>(policy: Record<RetentionField, T>): PolicyColumns<T> {
  return {
    order_days: policy.orderDays,
    patient_years: policy.patientYears,
    temperature_days: policy.temperatureDays,
    audit_days: policy.auditDays,
    delivery_days: policy.deliveryDays,
  };
}

/** The product's policy (the defaults until support first saves one) and when it was last saved. */
export async function readProductPolicy(db: Db): Promise<{ policy: RetentionPolicy; updated: number | null }> {
  const row = await db.selectFrom('retention_policy').selectAll().executeTakeFirst();
  return row
    ? { policy: fromRow(row), updated: Number(row.updated) }
    : { policy: { ...defaultRetentionPolicy }, updated: null };
}

export async function writeProductPolicy(db: Db, policy: RetentionPolicy, now: number, userId: string | null) {
  const values = { ...toColumns(policy), updated: now, updated_by: userId };
  await db
    .insertInto('retention_policy')
    .values({ id: true, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

const noOverrides: RetentionOverrides = {
  orderDays: null,
  patientYears: null,
  temperatureDays: null,
  auditDays: null,
  deliveryDays: null,
};

/** A business's overrides (all null when it has none) and when they were last saved. */
export async function readOverrides(
  db: Db,
  businessId: string,
): Promise<{ overrides: RetentionOverrides; updated: number | null }> {
  const row = await db
    .selectFrom('business_retention')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row
    ? { overrides: fromRow(row), updated: Number(row.updated) }
    : { overrides: { ...noOverrides }, updated: null };
}

/** Every business's overrides, for the nightly run. */
export async function listOverrides(db: Db): Promise<Map<string, RetentionOverrides>> {
  const rows = await db.selectFrom('business_retention').selectAll().execute();
  return new Map(rows.map((r) => [r.business_id, fromRow(r)]));
}

export async function writeOverrides(
  db: Db,
  businessId: string,
  overrides: RetentionOverrides,
  now: number,
  userId: string | null,
) {
  const values = { ...toColumns(overrides), updated: now, updated_by: userId };
  await db
    .insertInto('business_retention')
    .values({ business_id: businessId, ...values })
    .onConflict((oc) => oc.column('business_id').doUpdateSet(values))
    .execute();
}

/** Ids of every business (archived too: their data ages like any other). */
export async function listBusinessIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('businesses').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function businessExists(db: Db, businessId: string): Promise<boolean> {
  return (await db.selectFrom('businesses').select('id').where('id', '=', businessId).executeTakeFirst()) !== undefined;
}
