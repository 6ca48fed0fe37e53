import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Machines (lockers), their pairing and credentials, and what they report. Business-owned rows point at
 * their machine with (business_id, machine_id), so a row can never name another business's machine.
 */

const UP = [
  `create table machines (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    name text not null,
    number_of_slots integer not null check (number_of_slots > 0),
    payments_enabled boolean not null default false,
    is_test boolean not null default false,
    archived_at bigint,
    archived_by_id text,
    archived_by_display text,
    out_of_order_at bigint,
    out_of_order_by_id text,
    out_of_order_by_display text,
    temperature_average double precision,
    temperature_last_excursion_at bigint,
    temperature_updated bigint,
    online boolean not null default false,
    last_seen bigint,
    created bigint not null,
    updated bigint not null,
    unique (business_id, id)
  )`,
  // 'A machine with that name already exists for this business': unique whatever the case.
  `create unique index machines_business_name_key on machines (business_id, lower(name))`,
  // listMachines {businessId, archived, filter}: name order and prefix search within a business.
  `create index machines_business_name_idx on machines (business_id, lower(name) text_pattern_ops, id)`,

  // The OAuth-style device flow: a locker asks for a device code before anyone knows which machine it is,
  // so business and machine are filled in when staff enter the user code in the Pair dialog.
  `create table device_authorizations (
    id text primary key,
    device_code_hash text not null,
    user_code text not null,
    expires_at bigint not null,
    business_id text,
    machine_id text,
    activated_at bigint,
    activated_by_id text,
    activated_by_display text,
    -- set when the locker has exchanged the device code for its tokens
    consumed_at bigint,
    created bigint not null,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict,
    check ((activated_at is null) = (machine_id is null))
  )`,
  `create unique index device_authorizations_device_code_hash_key on device_authorizations (device_code_hash)`,
  // A pending user code must name one locker only; the app removes expired rows before reusing a code.
  `create unique index device_authorizations_pending_user_code_key on device_authorizations (user_code)
    where activated_at is null`,

  `create table machine_credentials (
    id text primary key,
    business_id text not null,
    machine_id text not null,
    access_token_hash text not null,
    access_token_expires_at bigint not null,
    refresh_token_hash text not null,
    refresh_token_expires_at bigint,
    -- test machines only: the console shows their tokens, so the app keeps them encrypted (never plain)
    access_token_encrypted text,
    refresh_token_encrypted text,
    revoked_at bigint,
    created bigint not null,
    updated bigint not null,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  `create unique index machine_credentials_access_token_hash_key on machine_credentials (access_token_hash)`,
  `create unique index machine_credentials_refresh_token_hash_key on machine_credentials (refresh_token_hash)`,
  // Pairing again revokes the old credential first: one live credential per machine.
  `create unique index machine_credentials_live_key on machine_credentials (machine_id) where revoked_at is null`,
  `create index machine_credentials_business_idx on machine_credentials (business_id, machine_id)`,

  // Append-only. Status is re-sent, not queued, so it has no replay key.
  `create table machine_status (
    id text primary key,
    business_id text not null,
    machine_id text not null,
    created bigint not null,
    observations jsonb not null default '{}'::jsonb,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  `create index machine_status_machine_idx on machine_status (business_id, machine_id, id)`,

  // Append-only. EM_ codes come from the locker with its own event id; MP_ codes are raised by the product.
  `create table machine_events (
    id text primary key,
    business_id text not null,
    machine_id text not null,
    bag_id text,
    barcode text,
    code text not null,
    level text not null check (level in ('critical', 'error', 'info', 'warn')),
    message text not null default '',
    data jsonb not null default '{}'::jsonb,
    -- locker-made id and per-machine sequence; null for product-raised events
    locker_event_id text,
    sequence bigint,
    created bigint not null,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  // A replay after a dropped connection must not record the event twice.
  `create unique index machine_events_replay_key on machine_events (business_id, machine_id, locker_event_id)`,
  `create index machine_events_machine_idx on machine_events (business_id, machine_id, id)`,
  `create index machine_events_business_idx on machine_events (business_id, id)`,

  // Append-only. A locker sends readings in batches under one event id, so the replay key is the reading's
  // own time: one reading per machine per millisecond.
  `create table temperature_readings (
    id text primary key,
    business_id text not null,
    machine_id text not null,
    created bigint not null,
    value double precision not null,
    locker_event_id text,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  `create unique index temperature_readings_replay_key on temperature_readings (business_id, machine_id, created)`,

  // Every data-changing locker message (BagLoaded, BagCollected, BagRemoved, MachineEvent, ...) is stored
  // here under its locker event id before the hub acknowledges it; a replay finds the row and gets the
  // stored result instead of changing anything twice.
  `create table locker_event_receipts (
    business_id text not null,
    machine_id text not null,
    locker_event_id text not null,
    sequence bigint not null,
    action text not null,
    received_at bigint not null,
    result jsonb,
    primary key (business_id, machine_id, locker_event_id),
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  `create index locker_event_receipts_sequence_idx on locker_event_receipts (business_id, machine_id, sequence)`,
];

const DOWN = [
  'drop table locker_event_receipts',
  'drop table temperature_readings',
  'drop table machine_events',
  'drop table machine_status',
  'drop table machine_credentials',
  'drop table device_authorizations',
  'drop table machines',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
