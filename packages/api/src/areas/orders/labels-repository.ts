import type { Db } from './mapping-repository.ts';

/** What a bag label needs of one order and its patient (the patient row may be gone: the order's copy of the name stays). */
export type LabelRow = {
  id: string;
  businessId: string;
  reference: string;
  barcode: string;
  patientName: string;
  givenName: string | null;
  familyName: string | null;
  machineName: string | null;
  collectionWindow: number;
  expiresAt: number | null;
};

/** The labels' orders, in no particular order; ids not found are left out. */
export async function findLabelRows(db: Db, ids: readonly string[]): Promise<LabelRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('orders')
    .leftJoin('patients', 'patients.id', 'orders.patient_id')
    .select([
      'orders.id',
      'orders.business_id',
      'orders.reference',
      'orders.barcode',
      'orders.patient_name',
      'patients.given_name',
      'patients.family_name',
      'orders.machine_name',
      'orders.collection_window',
      'orders.expires_at',
    ])
    .where('orders.id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    businessId: r.business_id,
    reference: r.reference,
    barcode: r.barcode,
    patientName: r.patient_name,
    givenName: r.given_name,
    familyName: r.family_name,
    machineName: r.machine_name,
    collectionWindow: Number(r.collection_window),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  }));
}
