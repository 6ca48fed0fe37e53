import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Settings (global, per business), templates, payment settings, the integration API and its webhook
 * outbox, monthly statistics and short URLs. Secrets the app must use again (card provider token and
 * secret, webhook signing secret) are stored encrypted by the app; secrets it only checks are hashed.
 */

const SMS_TEMPLATE_KEYS = `'machineBackInOrder', 'machineOutOfOrder', 'orderReady', 'orderUpdated', 'orderRemoved',
  'orderExpiring', 'paymentRequired', 'orderCollected'`;

const UP = [
  // A single row: the primary key can only be true.
  `create table global_settings (
    id boolean primary key default true check (id),
    nhs_prescription_charge bigint not null check (nhs_prescription_charge > 0),
    updated bigint not null,
    updated_by text
  )`,

  `create table alarm_message_templates (
    code text primary key check (code ~ '^(EM|MP)_[0-9]{4}$'),
    body text not null,
    updated bigint not null
  )`,

  `create table business_feature_settings (
    business_id text primary key references businesses (id) on delete restrict,
    settings jsonb not null default '{}'::jsonb,
    updated bigint not null
  )`,
  `create table business_controlled_settings (
    business_id text primary key references businesses (id) on delete restrict,
    settings jsonb not null default '{}'::jsonb,
    updated bigint not null
  )`,

  `create table business_sms_templates (
    business_id text not null references businesses (id) on delete restrict,
    key text not null check (key in (${SMS_TEMPLATE_KEYS})),
    body text not null,
    updated bigint not null,
    primary key (business_id, key)
  )`,

  `create table payment_settings (
    business_id text primary key references businesses (id) on delete restrict,
    contact_number text not null,
    legal_info text not null,
    provider text not null,
    judo_id text,
    judo_sandbox boolean not null default false,
    judo_token_encrypted text,
    judo_secret_encrypted text,
    judo_show_visa boolean not null default true,
    judo_show_amex boolean not null default true,
    judo_show_mastercard boolean not null default true,
    created bigint not null,
    updated bigint not null
  )`,

  // Known pharmacy system suppliers.
  `create table integration_partners (
    id text primary key,
    name text not null,
    contact_email text not null,
    suppress_patient_messages boolean not null default false,
    created bigint not null,
    updated bigint not null
  )`,
  `create unique index integration_partners_name_key on integration_partners (lower(name))`,

  `create table integration_clients (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    partner_id text references integration_partners (id) on delete restrict,
    name text not null,
    contact_email text,
    suppress_patient_messages boolean not null default false,
    webhook_url text,
    -- the client secret is shown once; only its hash and last characters (for the masked view) are kept
    secret_hash text,
    secret_hint text,
    webhook_secret_encrypted text,
    -- requests allowed per period; requests_made counts from period_start
    rate_limit integer not null check (rate_limit > 0),
    period_start bigint not null,
    requests_made integer not null default 0,
    created bigint not null,
    updated bigint not null,
    unique (business_id, id)
  )`,
  `create unique index integration_clients_business_key on integration_clients (business_id)`,
  `create unique index integration_clients_secret_hash_key on integration_clients (secret_hash)`,

  `create table webhook_outbox (
    id text primary key,
    business_id text not null,
    integration_client_id text not null,
    event_type text not null,
    payload jsonb not null,
    status text not null default 'pending' check (status in ('pending', 'success', 'failed')),
    attempts integer not null default 0,
    next_attempt_at bigint not null,
    last_error text,
    response_status integer,
    delivered_at bigint,
    created bigint not null,
    updated bigint not null,
    foreign key (business_id, integration_client_id) references integration_clients (business_id, id)
      on delete restrict
  )`,
  `create index webhook_outbox_due_idx on webhook_outbox (status, next_attempt_at)`,
  `create index webhook_outbox_business_idx on webhook_outbox (business_id, id)`,

  `create table monthly_business_stats (
    business_id text not null references businesses (id) on delete restrict,
    year integer not null check (year between 2000 and 9999),
    month integer not null check (month between 1 and 12),
    notifications_sent integer not null default 0,
    orders_added integer not null default 0,
    orders_collected integer not null default 0,
    total_pickup_minutes bigint not null default 0,
    initial_patient_count integer not null default 0,
    -- may be negative: more patients deleted than added
    patient_delta integer not null default 0,
    updated bigint not null,
    primary key (business_id, year, month)
  )`,

  // id is the short path segment
  `create table short_urls (
    id text primary key,
    target_url text not null,
    created bigint not null,
    updated bigint not null
  )`,
];

const DOWN = [
  'drop table short_urls',
  'drop table monthly_business_stats',
  'drop table webhook_outbox',
  'drop table integration_clients',
  'drop table integration_partners',
  'drop table payment_settings',
  'drop table business_sms_templates',
  'drop table business_controlled_settings',
  'drop table business_feature_settings',
  'drop table alarm_message_templates',
  'drop table global_settings',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
