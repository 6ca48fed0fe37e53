import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Single sign-on.
 * - `identity_providers.business_id` / `group_id`: a provider tied to one business or group (at most
 *   one of them); neither: a global provider. `configuration` keeps the OIDC client secret sealed
 *   (`clientSecretSealed`, AES-GCM under SECRETS_KEY), never in clear.
 * - `sso_logins`: one sign-in started at an identity provider. `state_hash` is the SHA-256 of the
 *   `state` (OIDC) or of the AuthnRequest id (SAML, the response's InResponseTo); `browser_hash` the
 *   SHA-256 of the random cookie given to the browser that started it, so a callback in another
 *   browser is refused. `nonce` and `code_verifier` (PKCE) are kept only until the callback;
 *   `used` is set once, so a state (and so a code) is good for one callback only.
 * - `sso_assertions`: SAML assertion ids already accepted, until their NotOnOrAfter: a replayed
 *   assertion is refused.
 * - `cli_sign_ins`: a command-line sign-in through the browser: the hash of the cli's polling code, the
 *   short code the person approves, and once approved the user and the new session's token, sealed,
 *   until the cli collects it (then the row is deleted).
 */

const UP = [
  `alter table identity_providers
    add column business_id text references businesses (id) on delete cascade,
    add column group_id text references groups (id) on delete cascade,
    add constraint identity_providers_one_scope check (business_id is null or group_id is null)`,
  `create table sso_logins (
    id text primary key,
    identity_provider_id text not null references identity_providers (id) on delete cascade,
    state_hash text not null,
    browser_hash text not null,
    nonce text,
    code_verifier text,
    return_path text not null default '/',
    created bigint not null,
    expires bigint not null,
    used bigint
  )`,
  `create unique index sso_logins_state_key on sso_logins (state_hash)`,
  `create index sso_logins_expires_idx on sso_logins (expires)`,
  `create table sso_assertions (
    identity_provider_id text not null references identity_providers (id) on delete cascade,
    assertion_id text not null,
    expires bigint not null,
    primary key (identity_provider_id, assertion_id)
  )`,
  `create table cli_sign_ins (
    id text primary key,
    device_hash text not null,
    user_code text not null,
    user_id text references users (id) on delete cascade,
    token_sealed text,
    session_expires bigint,
    created bigint not null,
    expires bigint not null
  )`,
  `create unique index cli_sign_ins_device_key on cli_sign_ins (device_hash)`,
  `create unique index cli_sign_ins_user_code_key on cli_sign_ins (user_code)`,
];

const DOWN = [
  'drop table cli_sign_ins',
  'drop table sso_assertions',
  'drop table sso_logins',
  `alter table identity_providers
    drop constraint identity_providers_one_scope,
    drop column group_id,
    drop column business_id`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
