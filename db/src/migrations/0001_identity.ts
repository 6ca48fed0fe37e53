import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Conventions for every table: ids are text (UUIDv7 made by the app), timestamps bigint milliseconds,
 * money bigint pence, booleans boolean, enums text with a CHECK. DDL is plain SQL, one statement per
 * call, because PGlite's extended protocol refuses several statements in one query.
 */

const UP = [
  `create table identity_providers (
    id text primary key,
    name text not null,
    type text not null check (type in ('OIDC', 'SAML')),
    -- {clientId, clientSecret, issuerUrl}
    configuration jsonb not null default '{}'::jsonb,
    created bigint not null,
    updated bigint not null
  )`,
  `create unique index identity_providers_name_key on identity_providers (lower(name))`,

  `create table users (
    id text primary key,
    email text not null,
    -- lower-case, trimmed: the login username and the one key for an account
    email_normalised text not null,
    given_name text not null default '',
    family_name text not null default '',
    -- null for single-sign-on only accounts
    password_hash text,
    force_reset boolean not null default false,
    identity_provider_id text references identity_providers (id) on delete set null,
    front_end text not null check (front_end in ('support', 'pharmacy')),
    created bigint not null,
    updated bigint not null,
    check (email_normalised = lower(btrim(email_normalised)))
  )`,
  `create unique index users_email_normalised_key on users (email_normalised)`,
  // Prefix filters ("Group user filter matches by prefix of email, given name, family name or full name").
  `create index users_email_prefix_idx on users (email_normalised text_pattern_ops)`,
  `create index users_given_name_prefix_idx on users (lower(given_name) text_pattern_ops)`,
  `create index users_family_name_prefix_idx on users (lower(family_name) text_pattern_ops)`,
  `create index users_identity_provider_idx on users (identity_provider_id) where identity_provider_id is not null`,

  `create table user_roles (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    name text not null check (name in (
      'Support', 'Business', 'Group', 'Developer',
      'business', 'developer', 'group', 'internal', 'machine', 'patient-mobile', 'support', 'user'
    )),
    resource_type text check (resource_type in ('business', 'group')),
    resource_id text,
    access_levels text[] not null default '{}',
    description text not null default '',
    created bigint not null,
    check ((resource_type is null) = (resource_id is null))
  )`,
  // One role of a name per user and resource; coalesce so that two unscoped roles also collide.
  `create unique index user_roles_user_name_resource_key on user_roles (user_id, name, coalesce(resource_id, ''))`,
  // getUsersByRole {roleName, roleResource}
  `create index user_roles_name_resource_idx on user_roles (name, resource_id, user_id)`,

  `create table sessions (
    id text primary key,
    -- the token itself is never stored, only its hash
    token_hash text not null,
    user_id text not null references users (id) on delete cascade,
    created bigint not null,
    -- absolute expiry: a session never outlives it, however active
    expires_at bigint not null,
    -- idle expiry: pushed forward on use
    idle_expires_at bigint not null,
    last_seen bigint not null,
    ip text,
    user_agent text,
    revoked_at bigint
  )`,
  `create unique index sessions_token_hash_key on sessions (token_hash)`,
  `create index sessions_user_idx on sessions (user_id)`,
  `create index sessions_expires_at_idx on sessions (expires_at)`,

  // Counted on the normalised username whatever the password, and whether the account exists or not.
  `create table login_failures (
    username_normalised text primary key,
    failures integer not null default 0,
    first_failure_at bigint not null,
    locked_until bigint
  )`,

  `create table password_reset_tokens (
    id text primary key,
    token_hash text not null,
    user_id text not null references users (id) on delete cascade,
    created bigint not null,
    expires_at bigint not null,
    used_at bigint
  )`,
  `create unique index password_reset_tokens_token_hash_key on password_reset_tokens (token_hash)`,
  `create index password_reset_tokens_user_idx on password_reset_tokens (user_id)`,

  // Append-only. No foreign keys: an audit row outlives the user, business or entity it names.
  `create table audit_log (
    id text primary key,
    at bigint not null,
    actor_user_id text,
    actor_display text,
    action text not null,
    entity_type text not null,
    entity_id text,
    business_id text,
    ip text,
    request_id text,
    details jsonb not null default '{}'::jsonb
  )`,
  `create index audit_log_entity_idx on audit_log (entity_type, entity_id, at)`,
  `create index audit_log_actor_idx on audit_log (actor_user_id, at)`,
  `create index audit_log_business_idx on audit_log (business_id, at)`,
  // The audit log of a health-data system must not be rewritten by the app: refuse UPDATE and DELETE.
  // (TRUNCATE, used by tests and by an operator, is a separate privilege and not affected.)
  `create function audit_log_refuse_change() returns trigger language plpgsql as $$
  begin
    raise exception 'audit_log is append-only';
  end;
  $$`,
  `create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_refuse_change()`,
];

const DOWN = [
  'drop table audit_log',
  'drop function audit_log_refuse_change',
  'drop table password_reset_tokens',
  'drop table login_failures',
  'drop table sessions',
  'drop table user_roles',
  'drop table users',
  'drop table identity_providers',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
