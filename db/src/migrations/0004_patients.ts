import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Patients and online sign-ups: health data. Patients are soft-deleted (deleted_at), so their orders and
 * history keep a patient to point at; a deleted patient's display id may be given to a new patient.
 */

const UP = [
  `create table patients (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    -- the business's patient id: an NHS/CHI number or its own unique id (displayIdField setting)
    display_id text not null,
    given_name text not null default '',
    family_name text not null default '',
    full_name text not null,
    date_of_birth text check (date_of_birth ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    email text,
    -- normalised +447xxxxxxxxx
    mobile_number text,
    address_line1 text,
    address_line2 text,
    address_line3 text,
    post_town text,
    postcode text,
    deleted_at bigint,
    deleted_by_id text,
    deleted_by_display text,
    -- {error, timestamp}
    last_sms_failure jsonb,
    last_email_failure jsonb,
    created bigint not null,
    updated bigint not null,
    unique (business_id, id)
  )`,
  `create unique index patients_business_display_id_key on patients (business_id, display_id) where deleted_at is null`,
  // patients.list {businessId, filter, onlyCurrent, onlyWithIssues}: keyset by id, prefix filters.
  `create index patients_business_idx on patients (business_id, id) where deleted_at is null`,
  `create index patients_business_issues_idx on patients (business_id, id)
    where deleted_at is null and (last_sms_failure is not null or last_email_failure is not null)`,
  `create index patients_business_full_name_idx on patients (business_id, lower(full_name) text_pattern_ops)`,
  `create index patients_business_family_name_idx on patients (business_id, lower(family_name) text_pattern_ops)`,
  `create index patients_business_display_id_idx on patients (business_id, display_id text_pattern_ops)`,
  `create index patients_business_mobile_idx on patients (business_id, mobile_number text_pattern_ops)`,
  `create index patients_business_email_idx on patients (business_id, lower(email) text_pattern_ops)`,

  `create table patient_sign_ups (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    first_name text not null,
    last_name text not null,
    date_of_birth text check (date_of_birth ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    email text,
    mobile_number text,
    address_line1 text,
    address_line2 text,
    address_line3 text,
    post_town text,
    postcode text,
    status text not null default 'new' check (status in ('new', 'validated', 'confirmed', 'rejected')),
    -- contact verification: only hashes of the codes sent, with expiry and attempts against guessing
    email_code_hash text,
    email_code_status text not null default 'notChecked'
      check (email_code_status in ('notChecked', 'codeExpired', 'codeIncorrect', 'verified')),
    email_code_expires_at bigint,
    email_code_attempts integer not null default 0,
    mobile_code_hash text,
    mobile_code_status text not null default 'notChecked'
      check (mobile_code_status in ('notChecked', 'codeExpired', 'codeIncorrect', 'verified')),
    mobile_code_expires_at bigint,
    mobile_code_attempts integer not null default 0,
    -- the patient this sign-up was converted into
    patient_id text,
    created bigint not null,
    updated bigint not null,
    foreign key (business_id, patient_id) references patients (business_id, id) on delete restrict
  )`,
  // signUps.list {businessId, filter, past} and count
  `create index patient_sign_ups_business_status_idx on patient_sign_ups (business_id, status, id)`,
  `create index patient_sign_ups_business_idx on patient_sign_ups (business_id, id)`,
];

const DOWN = ['drop table patient_sign_ups', 'drop table patients'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
