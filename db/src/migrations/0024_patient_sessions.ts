import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The patient session: a patient proves who they are for one order (date of birth, or a
 * code texted to the order's mobile) and gets a session scoped to that patient, in its own cookie.
 * - `patient_sessions`: like staff `sessions`, only the token's hash; the patient and business it
 *   reaches, the order and the way it was proven.
 * - `patient_verifications`: per order, the wrong tries (reserved before each check, so concurrent
 *   requests cannot slip past the lock), the lock, and the outstanding SMS code's hash and expiry.
 * - `patient_mobiles`: other mobiles a patient added from their session (a carer's, a new phone), each
 *   proven by a code texted to it; verified ones also receive the link's codes.
 */

const up_ = [
  `create table patient_sessions (
    id text primary key,
    token_hash text not null unique,
    business_id text not null references businesses (id) on delete cascade,
    patient_id text not null,
    order_id text not null,
    method text not null check (method in ('dateOfBirth', 'sms')),
    created bigint not null,
    expires_at bigint not null,
    idle_expires_at bigint not null,
    last_seen bigint not null,
    revoked_at bigint,
    ip text,
    user_agent text,
    foreign key (business_id, patient_id) references patients (business_id, id) on delete cascade
  )`,
  `create index patient_sessions_patient_idx on patient_sessions (patient_id)`,
  `create table patient_verifications (
    order_id text primary key references orders (id) on delete cascade,
    failures integer not null default 0,
    first_failure_at bigint,
    locked_until bigint,
    code_hash text,
    code_expires_at bigint,
    code_sends integer not null default 0,
    first_send_at bigint,
    last_send_at bigint,
    updated bigint not null
  )`,
  `create table patient_mobiles (
    id text primary key,
    business_id text not null,
    patient_id text not null,
    mobile text not null,
    verified_at bigint,
    code_hash text,
    code_expires_at bigint,
    code_attempts integer not null default 0,
    code_sent_at bigint,
    created bigint not null,
    updated bigint not null,
    unique (patient_id, mobile),
    foreign key (business_id, patient_id) references patients (business_id, id) on delete cascade
  )`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of up_) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table patient_mobiles').execute(db);
  await sql.raw('drop table patient_verifications').execute(db);
  await sql.raw('drop table patient_sessions').execute(db);
}
