import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * - machines.created_by: the user who added the machine. A QA test machine's alarms go to that person
 *   alone, never to the business's keyholders and notification addresses (null: nobody is told).
 * - machines.reported_slots: how many slots the locker last said it has (StatusNotification's
 *   `slotsTotal`), so a machine set up with another number is flagged.
 * - bags.reference: a bag matched to an order carries the order's reference (a cancelled order's bag
 *   still in the locker showed none); the bags already matched get theirs.
 */

const UP = [
  'alter table machines add column created_by text',
  'alter table machines add column reported_slots integer',
  `update bags set reference = orders.reference
   from orders
   where bags.order_id = orders.id and bags.reference is null`,
];

const DOWN = ['alter table machines drop column reported_slots', 'alter table machines drop column created_by'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
