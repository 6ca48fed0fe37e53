import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * WhatsApp opt-in (users.addWhatsAppOptIn / verifyWhatsAppOptInMessage): a patient is opted in for the
 * mobile number they proved they read WhatsApp on, recorded with when and by whom. The opt-in holds only
 * while that number is the patient's mobile (changing the mobile clears it). whatsapp_opt_in_codes: the
 * one outstanding code per patient, stored as a hash with its expiry and wrong tries, and the counters of
 * the codes sent (at most one a minute, five a day), reserved before the code is queued.
 */

const UP = [
  'alter table patients add column whatsapp_opt_in_at bigint',
  'alter table patients add column whatsapp_opt_in_mobile text',
  'alter table patients add column whatsapp_opt_in_by_id text',
  'alter table patients add column whatsapp_opt_in_by_display text',
  `create table whatsapp_opt_in_codes (
    patient_id text primary key references patients (id) on delete cascade,
    business_id text not null references businesses (id) on delete cascade,
    -- the +447… number the code was sent to: the number opted in when the code is right
    mobile_number text not null,
    -- sha256 of patient id, number and code; null once used or spent
    code_hash text,
    expires_at bigint not null,
    attempts integer not null default 0,
    last_sent_at bigint not null,
    -- the rolling day of the rate limit: when it began and how many codes were sent in it
    day_started_at bigint not null,
    sent_in_day integer not null default 0
  )`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table whatsapp_opt_in_codes').execute(db);
  for (const c of ['at', 'mobile', 'by_id', 'by_display']) {
    await sql.raw(`alter table patients drop column whatsapp_opt_in_${c}`).execute(db);
  }
}
