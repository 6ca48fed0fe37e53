import type { Database } from '@medlocker/db';
import { type Kysely, sql } from 'kysely';

/** Asks the database the smallest question there is: it throws when the database does not answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
