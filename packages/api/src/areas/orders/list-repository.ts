import type { OrderSortColumn, OrderSortDirection, OrderStatus } from '@medlocker/core';
import { type RawBuilder, sql } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import { type Db, type StoredOrder, toStoredOrder } from './mapping-repository.ts';

/** Which of a business's orders a list means (its filters), as the list, a selection and an export read them. */
export type OrderFilterQuery = {
  businessId: string;
  patientId?: string;
  filterText?: string;
  onlyCurrent?: boolean;
  status?: OrderStatus;
  /** Only loaded orders whose window has passed at this time. */
  expiredAt?: number;
};

export type OrderListQuery = OrderFilterQuery & {
  /** The id of the last order of the previous page (newest first). */
  before?: string;
  limit: number;
};

/** A sorted page: after the sort key of the last row seen ([value, id]). */
export type SortedOrderQuery = OrderFilterQuery & {
  sortBy: OrderSortColumn;
  direction: OrderSortDirection;
  after?: [string | number, string];
  limit: number;
};

/**
 * The SQL each sort column orders by, never null (keyset paging compares it): an order without an
 * expiry sorts as the earliest, one without a machine as the empty name; names in any case.
 */
const sortKeys: Record<OrderSortColumn, { expr: RawBuilder<unknown>; kind: 'number' | 'string' }> = {
  created: { expr: sql`created`, kind: 'number' },
  expires: { expr: sql`coalesce(expires_at, 0)`, kind: 'number' },
  status: { expr: sql`status::text`, kind: 'string' },
  machine: { expr: sql`lower(coalesce(machine_name, ''))`, kind: 'string' },
  patient: { expr: sql`lower(patient_name)`, kind: 'string' },
};

/** Whether a page token's value has the sort column's kind (a forged one is refused, not run). */
export const sortValueFits = (sortBy: OrderSortColumn, value: unknown): boolean =>
  sortKeys[sortBy].kind === 'number' ? Number.isSafeInteger(value) : typeof value === 'string';

/** The sort column's value of a row, as a page token keeps it. */
export function sortValueOf(row: StoredOrder, sortBy: OrderSortColumn): string | number {
  switch (sortBy) {
    case 'created':
      return row.created;
    case 'expires':
      return row.expiresAt ?? 0;
    case 'status':
      return row.status;
    case 'machine':
      return (row.machineName ?? '').toLowerCase();
    case 'patient':
      return row.patientName.toLowerCase();
  }
}

/** The orders of a business matching the filters (not yet ordered or limited). */
function filtered(db: Db, q: OrderFilterQuery) {
  let query = db.selectFrom('orders').where('business_id', '=', q.businessId);
  if (q.patientId !== undefined) query = query.where('patient_id', '=', q.patientId);
  if (q.onlyCurrent) query = query.where('status', 'in', ['new', 'loaded']);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.filterText) query = query.where(contains('orders', q.filterText));
  if (q.expiredAt !== undefined) {
    query = query.where('status', '=', 'loaded').where(sql`expires_at + 0`, '<=', q.expiredAt);
  }
  return query;
}

/** Orders of a business (or of one of its patients), newest first, keyset-paged on the id. */
export async function listOrders(db: Db, q: OrderListQuery): Promise<StoredOrder[]> {
  let query = filtered(db, q);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  if (q.expiredAt === undefined) {
    return (await query.selectAll().orderBy('id', 'desc').limit(q.limit).execute()).map(toStoredOrder);
  }
  // Expired: the page's ids first, from orders_business_loaded_idx alone (migration 0018: loaded orders
  // by id, the expiry in the index), then those rows. `expires_at + 0` keeps the planner off
  // orders_expiry_idx: taking status and expiry as independent, it expects ~50× fewer expired orders than
  // there are and picks reading them all by expiry and sorting (bench/orders: 9 ms against under 1 ms).
  const ids = query.select('id').orderBy('id', 'desc').limit(q.limit);
  return (await db.selectFrom('orders').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute()).map(
    toStoredOrder,
  );
}

/** Orders matching the filters in a column's order, ties by id the same way, keyset-paged on (value, id). */
export async function listSortedOrders(db: Db, q: SortedOrderQuery): Promise<StoredOrder[]> {
  const { expr } = sortKeys[q.sortBy];
  const dir = q.direction === 'ascending' ? sql`asc` : sql`desc`;
  let query = filtered(db, q);
  if (q.after) {
    const [value, id] = q.after;
    const past = q.direction === 'ascending' ? sql`>` : sql`<`;
    query = query.where(sql<boolean>`(${expr}, id) ${past} (${value}, ${id})`);
  }
  const rows = await query.selectAll().orderBy(sql`${expr} ${dir}`).orderBy(sql`id ${dir}`).limit(q.limit).execute();
  return rows.map(toStoredOrder);
}

/** The ids of the orders matching the filters, newest first, at most `limit`. */
export async function listOrderIdsOf(db: Db, q: OrderFilterQuery, limit: number): Promise<string[]> {
  const rows = await filtered(db, q).select('id').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}
