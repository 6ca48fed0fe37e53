import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * SAML identity providers' metadata read by URL, kept for every api process alike: one process's fetch
 * (and support's Test, which always fetches afresh) serves the others, so a provider's rotated
 * certificate is seen everywhere at once rather than after each process's own cache has run out.
 */

const UP = [
  `create table saml_metadata (
    url text primary key,
    xml text not null,
    fetched bigint not null
  )`,
];

const DOWN = ['drop table saml_metadata'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
