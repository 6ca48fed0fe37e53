import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

type Db = Kysely<Database>;

/** The metadata last fetched from `url` by any api process, and when. */
export const cachedMetadata = (db: Db, url: string) =>
  db.selectFrom('saml_metadata').select(['xml', 'fetched']).where('url', '=', url).executeTakeFirst();

/** Keeps what was just fetched from `url` for every process. */
export async function storeMetadata(db: Db, url: string, xml: string, fetched: number): Promise<void> {
  await db
    .insertInto('saml_metadata')
    .values({ url, xml, fetched })
    .onConflict((oc) => oc.column('url').doUpdateSet({ xml, fetched }))
    .execute();
}
