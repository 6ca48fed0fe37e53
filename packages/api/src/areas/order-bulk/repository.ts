import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** The references of these orders by id (an id with no order is left out). */
export async function findReferences(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'reference'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.reference]));
}
