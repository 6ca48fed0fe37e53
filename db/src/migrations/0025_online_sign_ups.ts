import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Online sign-ups: a member of the public signs up on the patient page.
 * - `patient_sign_ups.source`: 'staff' (entered in the console) or 'online' (the patient page).
 * - `access_token_hash` / `access_expires_at`: the hash of the token in the sign-up's HttpOnly cookie,
 *   the only proof that lets a browser see, verify and resend the codes of that one sign-up.
 * - `code_sends` / `last_code_sent_at`: codes sent for an online sign-up (each costs an SMS).
 * - `rate_buckets`: token buckets in the database (shared by every api process), keyed by what they
 *   limit, e.g. 'signup:address:203.0.113.7' or 'signup:business:{id}'.
 */

const UP = [
  `alter table patient_sign_ups
    add column source text not null default 'staff' check (source in ('staff', 'online')),
    add column access_token_hash text unique,
    add column access_expires_at bigint,
    add column code_sends integer not null default 0,
    add column last_code_sent_at bigint`,
  `create table rate_buckets (
    key text primary key,
    tokens double precision not null,
    refilled_at bigint not null
  )`,
];

const DOWN = [
  'drop table rate_buckets',
  `alter table patient_sign_ups
    drop column source,
    drop column access_token_hash,
    drop column access_expires_at,
    drop column code_sends,
    drop column last_code_sent_at`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
