import type { CollectionFilter, CollectionRecord } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

/*
 * The reports' reads. Collection records are the business's collected orders, read with the
 * index orders_business_collected_idx (business_id, collected) where collected is not null (migration
 * 0005): newest collection first, ties by id, so a keyset cursor (collected, id) pages stably. With
 * 1,000,000 orders on PostgreSQL a page is an index range scan backward plus an incremental sort of
 * the ties (under 1 ms; about 15 ms for a sparse filter over two years): no new index is needed.
 */

export type Db = Kysely<Database> | Transaction<Database>;

/** Where each collection filter puts an order (docs/decisions/reports.md, "Collection records"). */
export async function listCollectionRows(
  db: Db,
  q: {
    businessId: string;
    /** Collected at or after this moment… */
    from: number;
    /** …and before this one. */
    to: number;
    filter: CollectionFilter;
    /** The (collected, id) of the last record already seen. */
    after?: [number, string];
    limit: number;
  },
): Promise<CollectionRecord[]> {
  let query = db
    .selectFrom('orders')
    .select([
      'id',
      'reference',
      'patient_id',
      'patient_name',
      'collected',
      'amount_paid',
      'auto_exempt',
      'exemption_code',
      'pin_revealed_at',
      'prescription_charge',
      'retail_charge',
    ])
    .where('business_id', '=', q.businessId)
    .where('collected', 'is not', null)
    .where('collected', '>=', q.from)
    .where('collected', '<', q.to);
  if (q.filter === 'Paid') query = query.where('payment_status', '=', 'paid');
  if (q.filter === 'PIN revealed') query = query.where('pin_revealed_at', 'is not', null);
  if (q.filter === 'Exemption Declared') {
    query = query.where((eb) => eb.or([eb('exemption_code', 'is not', null), eb('auto_exempt', '=', true)]));
  }
  if (q.filter === 'No Charge') query = query.where('payment_status', '=', 'not_required');
  if (q.after) {
    const [collected, id] = q.after;
    // The plain bound first: it narrows the index range; the OR then drops the ties already seen.
    query = query
      .where('collected', '<=', collected)
      .where((eb) =>
        eb.or([eb('collected', '<', collected), eb.and([eb('collected', '=', collected), eb('id', '<', id)])]),
      );
  }
  const rows = await query.orderBy('collected', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    reference: r.reference,
    patientId: r.patient_id,
    patientName: r.patient_name,
    collected: Number(r.collected),
    amountPaid: Number(r.amount_paid),
    autoExempt: r.auto_exempt,
    exemptionCode: r.exemption_code,
    pinRevealed: r.pin_revealed_at !== null,
    prescriptionCharge: Number(r.prescription_charge),
    retailCharge: Number(r.retail_charge),
  }));
}

/** Every business's id in id order, after `after` when given (a rebuild over every business). */
export async function businessIdsAfter(db: Db, after: string | undefined): Promise<string[]> {
  let query = db.selectFrom('businesses').select('id').orderBy('id');
  if (after !== undefined) query = query.where('id', '>', after);
  return (await query.execute()).map((b) => b.id);
}
