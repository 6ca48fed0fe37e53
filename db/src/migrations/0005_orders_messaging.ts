import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Orders, the bags that carry them, their history, staff notifications and the message outbox. Money is
 * bigint pence. Business and patient names are copied onto an order as they were when it was made.
 */

const ACTIVE = `status in ('new', 'loaded')`;

const UP = [
  `create table orders (
    id text primary key,
    reference text not null,
    business_id text not null references businesses (id) on delete restrict,
    business_name text not null,
    patient_id text not null,
    patient_name text not null,
    barcode text not null,
    machine_id text,
    machine_name text,
    machine_sequence bigint,
    machine_payment boolean not null default false,
    pin text,
    status text not null default 'new' check (status in ('new', 'loaded', 'collected', 'removed', 'cancelled')),
    payment_status text not null default 'not_required'
      check (payment_status in ('not_required', 'unpaid', 'paid', 'exemption_declared')),
    payment_id text,
    amount_paid bigint not null default 0 check (amount_paid >= 0),
    prescription_charge bigint not null default 0 check (prescription_charge >= 0),
    retail_charge bigint not null default 0 check (retail_charge >= 0),
    exemption_code text check (exemption_code in ('A', 'B', 'D', 'E', 'F', 'G', 'L', 'H', 'K', 'M', 'S', 'U', 'W')),
    -- {nameOfDeclarant, onBehalfOfPatient, signature}
    exemption_details jsonb,
    auto_exempt boolean not null default false,
    -- days
    collection_window integer not null check (collection_window > 0),
    collected bigint,
    cancelled_at bigint,
    cancelled_by text,
    cancelled_by_display text,
    cancel_reason text,
    marked_collected_at bigint,
    marked_collected_by text,
    marked_collected_by_display text,
    marked_removed_at bigint,
    marked_removed_by text,
    marked_removed_by_display text,
    pin_revealed_at bigint,
    pin_revealed_by text,
    pin_reveal_reason text,
    expires_at bigint,
    created_via text not null check (created_via in ('integration-api', 'qr-code', 'portal')),
    created_by text,
    updated_by text,
    user_id text,
    receipt_sent boolean not null default false,
    messages_suppressed boolean not null default false,
    -- {address, providerStatus, providerDetails, status, templateKey, timestamp}
    last_email_status jsonb,
    last_notification_status jsonb,
    -- {location, machineId, machineName, pin}
    machine_details jsonb,
    patient_details jsonb,
    -- the row's version: the app increments it on every change
    sequence bigint not null default 0,
    created bigint not null,
    updated bigint not null,
    unique (business_id, id),
    unique (business_id, reference),
    foreign key (business_id, patient_id) references patients (business_id, id) on delete restrict,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict
  )`,
  // listOrdersByBusiness {filterText, onlyCurrent, statusCode}: newest first by id, keyset-paged.
  `create index orders_business_idx on orders (business_id, id)`,
  `create index orders_business_current_idx on orders (business_id, id) where ${ACTIVE}`,
  `create index orders_business_status_idx on orders (business_id, status, id)`,
  `create index orders_business_patient_name_idx on orders (business_id, lower(patient_name) text_pattern_ops)`,
  `create index orders_business_reference_idx on orders (business_id, lower(reference) text_pattern_ops)`,
  `create index orders_business_barcode_idx on orders (business_id, barcode text_pattern_ops)`,
  // listOrdersByPatient, and what a machine holds now
  `create index orders_business_patient_idx on orders (business_id, patient_id, id)`,
  `create index orders_business_machine_idx on orders (business_id, machine_id, status) where machine_id is not null`,
  // the expiry job, and collection stats by date
  `create index orders_expiry_idx on orders (expires_at) where ${ACTIVE}`,
  `create index orders_business_collected_idx on orders (business_id, collected) where collected is not null`,

  `create table bags (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    barcode text not null,
    reference text,
    -- the slot in the machine
    location text,
    machine_id text,
    order_id text,
    pin text,
    prescription_charge bigint not null default 0 check (prescription_charge >= 0),
    retail_charge bigint not null default 0 check (retail_charge >= 0),
    out_of_order_notification_sent boolean not null default false,
    created bigint not null,
    updated bigint not null,
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict,
    foreign key (business_id, order_id) references orders (business_id, id) on delete restrict
  )`,
  `create index bags_business_idx on bags (business_id, id)`,
  `create index bags_business_machine_idx on bags (business_id, machine_id, location) where machine_id is not null`,
  `create index bags_business_order_idx on bags (business_id, order_id) where order_id is not null`,
  `create index bags_business_barcode_idx on bags (business_id, barcode)`,

  // Append-only history of an order, with the names as they were.
  `create table order_events (
    id text primary key,
    business_id text not null,
    order_id text not null,
    order_reference text not null,
    patient_id text,
    code text not null,
    barcode text,
    message text not null default '',
    data jsonb not null default '{}'::jsonb,
    full_patient_name text,
    patient_display_id text,
    created bigint not null,
    foreign key (business_id, order_id) references orders (business_id, id) on delete restrict
  )`,
  `create index order_events_order_idx on order_events (business_id, order_id, id)`,
  `create index order_events_business_idx on order_events (business_id, id)`,
  `create index order_events_patient_idx on order_events (business_id, patient_id, id) where patient_id is not null`,

  `create table notifications (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    user_id text,
    level text not null check (level in ('critical', 'error', 'info', 'warn')),
    title text not null,
    body text not null default '',
    details jsonb,
    dismissed_at bigint,
    dismissed_by text,
    dismissed_by_display text,
    dismissed_in_bulk boolean,
    created bigint not null,
    updated bigint not null
  )`,
  `create index notifications_business_idx on notifications (business_id, id)`,
  // notifications.count and the unread list
  `create index notifications_business_unread_idx on notifications (business_id, id) where dismissed_at is null`,

  // Written in the same transaction as the change that causes the message; a worker sends with retries.
  // business_id is null only for account messages (password reset, registration).
  `create table message_outbox (
    id text primary key,
    business_id text references businesses (id) on delete restrict,
    order_id text,
    patient_id text,
    channel text not null check (channel in ('sms', 'email', 'whatsapp')),
    recipient text not null,
    template_key text not null,
    subject text,
    body text not null,
    status text not null default 'pending' check (status in ('pending', 'success', 'failed')),
    attempts integer not null default 0,
    next_attempt_at bigint not null,
    last_error text,
    provider text,
    provider_message_id text,
    provider_status text,
    provider_details jsonb,
    sent_at bigint,
    created bigint not null,
    updated bigint not null
  )`,
  `create index message_outbox_due_idx on message_outbox (status, next_attempt_at)`,
  `create index message_outbox_business_idx on message_outbox (business_id, id)`,
  `create index message_outbox_order_idx on message_outbox (business_id, order_id) where order_id is not null`,
  // delivery receipts from a gateway name its own message id
  `create index message_outbox_provider_idx on message_outbox (provider, provider_message_id)
    where provider_message_id is not null`,
];

const DOWN = [
  'drop table message_outbox',
  'drop table notifications',
  'drop table order_events',
  'drop table bags',
  'drop table orders',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
