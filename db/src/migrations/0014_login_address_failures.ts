import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The per-address limit on failed sign-ins moves from each process's memory into the database, so that
 * several api processes on one PostgreSQL share it and a sign-in reserves its attempt atomically before
 * the password is checked. One token bucket per client address key (an IPv4 address or an IPv6 /64):
 * `tokens` left at `refilled_at` (ms); the bucket refills continuously up to its capacity.
 */

const UP = [
  `create table login_address_failures (
    address_key text primary key,
    tokens double precision not null,
    refilled_at bigint not null
  )`,
];

const DOWN = ['drop table login_address_failures'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
