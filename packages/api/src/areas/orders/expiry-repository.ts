import type { Database } from '@medlocker/db';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type Db, type StoredOrder, toStoredOrder } from './mapping-repository.ts';

type OrderIds = SelectQueryBuilder<Database, 'orders', { id: string }>;

/**
 * The ids of up to `limit` loaded orders whose expiry is not yet recorded and that `narrow` keeps,
 * soonest expiry first, locked FOR UPDATE with SKIP LOCKED so that several sweepers share the work
 * instead of waiting on each other.
 */
const loadedUnrecorded = (db: Db, limit: number, narrow: (q: OrderIds) => OrderIds) =>
  narrow(db.selectFrom('orders').select('id').where('status', '=', 'loaded').where('expiry_recorded_at', 'is', null))
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();

/**
 * Marks up to `limit` loaded orders whose window has passed as having their expiry recorded, and
 * returns them. `expiry_recorded_at is null` in the same statement makes it once per order, whichever
 * process sweeps.
 */
export const claimExpiredOrders = async (db: Db, now: number, limit: number): Promise<StoredOrder[]> =>
  (
    await db
      .updateTable('orders')
      .set({ expiry_recorded_at: now })
      .where(
        'id',
        'in',
        loadedUnrecorded(db, limit, (q) => q.where('expires_at', '<=', now)),
      )
      .where('expiry_recorded_at', 'is', null)
      .returningAll()
      .execute()
  ).map(toStoredOrder);

/**
 * Marks up to `limit` loaded orders as reminded of their expiry and returns them: those whose expiry is
 * still ahead and has come within `leadMs`, or within half the collection window when that is shorter
 * (a one-day order is reminded 12 h after its ready message, not with it), and that have not been
 * reminded of this very expiry (`expiry_reminded_for`). Once per expiry, whichever process claims;
 * SKIP LOCKED lets several share the work. Read through orders_expiry_unrecorded_idx.
 */
export const claimOrdersToRemind = async (
  db: Db,
  now: number,
  leadMs: number,
  limit: number,
): Promise<StoredOrder[]> => {
  const notReminded = sql<boolean>`expiry_reminded_for is distinct from expires_at`;
  const rows = await db
    .updateTable('orders')
    .set({ expiry_reminded_for: sql`expires_at` })
    .where(
      'id',
      'in',
      loadedUnrecorded(db, limit, (q) =>
        q
          .where('expires_at', '>', now)
          .where('expires_at', '<=', now + leadMs)
          // A held PIN: the reminder waits for the release rather than going unsent.
          .where('pin_held_at', 'is', null)
          // half the window: collection_window days × 12 h
          .where(sql`expires_at - least(${leadMs}::bigint, collection_window::bigint * 43200000)`, '<=', now)
          .where(notReminded),
      ),
    )
    .where(notReminded)
    .returningAll()
    .execute();
  return rows.map(toStoredOrder);
};

/** Records that the patient was reminded of this expiry (staff sent the reminder themselves). */
export const setExpiryReminded = (db: Db, id: string, expiresAt: number) =>
  db.updateTable('orders').set({ expiry_reminded_for: expiresAt }).where('id', '=', id).execute();
