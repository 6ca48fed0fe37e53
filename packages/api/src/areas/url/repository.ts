import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

/** What a link needs of its order: the business it belongs to and its expiry (null until loaded). */
export async function findOrderForLink(
  db: Db,
  orderId: string,
): Promise<{ businessId: string; expiresAt: number | null } | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['business_id', 'expires_at'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  return row && { businessId: row.business_id, expiresAt: row.expires_at };
}

export async function insertShortUrl(
  db: Db,
  row: {
    code: string;
    target: string;
    orderId: string | null;
    businessId: string | null;
    expiresAt: number;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('short_urls')
    .values({
      code: row.code,
      target: row.target,
      order_id: row.orderId,
      business_id: row.businessId,
      expires_at: row.expiresAt,
      created: row.now,
    })
    .execute();
}

/** A link with its own expiry and, when it has an order, the order's current one. */
export async function findShortUrl(
  db: Db,
  code: string,
): Promise<{ target: string; expiresAt: number; orderExpiresAt: number | null } | undefined> {
  const row = await db
    .selectFrom('short_urls as s')
    .leftJoin('orders as o', 'o.id', 's.order_id')
    .select(['s.target', 's.expires_at', 'o.expires_at as order_expires_at'])
    .where('s.code', '=', code)
    .executeTakeFirst();
  return row && { target: row.target, expiresAt: row.expires_at, orderExpiresAt: row.order_expires_at };
}
