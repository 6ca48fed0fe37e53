import type { Level, Notification } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Stores a staff notification for a business's whole staff (no `userId`), or for one user of it alone,
 * not yet dismissed by anyone.
 * Machinery, so that an area (a machine's alarm) and a delivery channel (a webhook endpoint disabled)
 * both raise one the same way; `id` defaults to a fresh UUIDv7.
 */
export async function insertBusinessNotification(
  db: Db,
  n: {
    id?: string;
    businessId: string;
    /** Only this user sees it (a QA test machine's alarm, for the person who added the machine). */
    userId?: string | null;
    level: Level;
    title: string;
    body: string;
    details: Record<string, unknown>;
    now: number;
  },
): Promise<Notification> {
  const row = await db
    .insertInto('notifications')
    .values({
      id: n.id ?? Bun.randomUUIDv7(),
      business_id: n.businessId,
      user_id: n.userId ?? null,
      level: n.level,
      title: n.title,
      body: n.body,
      details: JSON.stringify(n.details),
      created: n.now,
      updated: n.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    businessId: row.business_id,
    userId: row.user_id,
    level: row.level,
    title: row.title,
    body: row.body,
    details: n.details,
    dismissed: null,
    created: row.created,
    updated: row.updated,
  };
}
