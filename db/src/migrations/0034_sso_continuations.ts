import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Keeping SAML sign-in safe from cross-site request forgery. The SAML assertion consumer service is a
 * cross-site POST, which carries no SameSite=Lax cookie, so it cannot tell which browser posted. It
 * now only checks the response and keeps its result here, then sends the browser (303) to a same-site
 * GET that does carry the Lax `medlocker_sso` cookie; that GET makes the session only when the cookie
 * is the one of the browser that started this sign-in.
 * - `sso_continuations`: one checked SAML response waiting for its browser. `ticket_hash` is the
 *   SHA-256 of the one-time ticket in the continuation URL; `sso_login_id` the sign-in it answers (its
 *   InResponseTo), `browser_hash` that sign-in's browser cookie hash; `subject` and `email` what the
 *   IdP's signed assertion said; `used` is set once; `expires` a couple of minutes after the POST.
 */

const UP = [
  `create table sso_continuations (
    id text primary key,
    ticket_hash text not null,
    identity_provider_id text not null references identity_providers (id) on delete cascade,
    sso_login_id text not null references sso_logins (id) on delete cascade,
    browser_hash text not null,
    subject text not null,
    email text not null,
    return_path text not null default '/',
    created bigint not null,
    expires bigint not null,
    used bigint
  )`,
  `create unique index sso_continuations_ticket_key on sso_continuations (ticket_hash)`,
  `create index sso_continuations_expires_idx on sso_continuations (expires)`,
];

const DOWN = ['drop table sso_continuations'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
