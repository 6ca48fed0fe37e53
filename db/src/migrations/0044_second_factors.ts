import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Staff sign-in with a second factor (docs/SECURITY.md "Second factor"):
 * - `second_factors`: a user's authenticator-app (TOTP) secrets, sealed, with the last time step used (a
 *   code is taken once), and passkeys (WebAuthn credential id, COSE public key, signature counter);
 *   each with the name its owner gave it and when it was last used;
 * - `recovery_codes`: one-time codes, only their SHA-256 hashes, each spent once (`used_at`);
 * - `sessions.pending`: a session that has proved the password only: 'second_factor' (the code or
 *   passkey is still to come) or 'setup' (policy wants a factor and the user has none: it may only set
 *   one up); null when signed in fully. `challenge`: the WebAuthn challenge issued to this session, until
 *   `challenge_expires_at`. `auth_methods`: how it signed in (RFC 8176 amr: pwd, otp, hwk, or what an
 *   identity provider asserted);
 * - `global_settings.support_second_factor_required`: whether support staff must have a second factor
 *   (on unless support turns it off; a database without the row reads it as on too);
 * - `sso_continuations.auth_methods`: what a SAML provider asserted (AuthnContextClassRef) carried to the
 *   session it starts.
 */

const UP = [
  `create table second_factors (
     id text primary key,
     user_id text not null references users(id) on delete cascade,
     kind text not null check (kind in ('totp', 'passkey')),
     name text not null check (length(name) between 1 and 100),
     totp_secret text,
     totp_last_step bigint,
     credential_id text unique,
     public_key text,
     sign_count bigint,
     transports text[],
     created bigint not null,
     last_used_at bigint,
     check ((kind = 'totp') = (totp_secret is not null)),
     check ((kind = 'passkey') = (credential_id is not null and public_key is not null and sign_count is not null))
   )`,
  'create index second_factors_user on second_factors (user_id, created)',
  `create table recovery_codes (
     id text primary key,
     user_id text not null references users(id) on delete cascade,
     code_hash text not null unique,
     created bigint not null,
     used_at bigint
   )`,
  'create index recovery_codes_user on recovery_codes (user_id) where used_at is null',
  `alter table sessions add column pending text check (pending in ('second_factor', 'setup'))`,
  'alter table sessions add column challenge text',
  'alter table sessions add column challenge_expires_at bigint',
  'alter table sessions add column auth_methods text[]',
  'alter table global_settings add column support_second_factor_required boolean not null default true',
  'alter table sso_continuations add column auth_methods text[]',
];

const DOWN = [
  'alter table sso_continuations drop column auth_methods',
  'alter table global_settings drop column support_second_factor_required',
  'alter table sessions drop column auth_methods',
  'alter table sessions drop column challenge_expires_at',
  'alter table sessions drop column challenge',
  'alter table sessions drop column pending',
  'drop table recovery_codes',
  'drop table second_factors',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
