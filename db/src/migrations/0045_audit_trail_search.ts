import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The audit trail, readable (audit.search): each filter is a keyset scan, newest first on (at, id).
 * - `audit_log.patient_id`: the patient an entry is about, so "who looked at this patient" finds the
 *   entries about the patient and about their orders and messages in one index. The api fills it when it
 *   writes an entry; here existing entries get it: a patient entry its entity id, an order entry its
 *   order's patient, a message entry the patient its details name (or its message's).
 * - The back-fill is the only UPDATE the append-only trigger ever lets through: it is disabled for these
 *   statements inside the migration's transaction and enabled again before the transaction ends.
 * - Every index ends with (at, id), the sort and the cursor, so a page is the first rows of one range
 *   scan whichever filter leads: all entries (at, id); business; actor; entity (an order's id); the
 *   patient (only entries that name one); the action. The three first indexes of migration 0001
 *   ended with `at` alone and are replaced by these.
 */

const UP = [
  'alter table audit_log add column patient_id text',
  'alter table audit_log disable trigger audit_log_append_only',
  `update audit_log set patient_id = entity_id where entity_type = 'patient' and entity_id is not null`,
  `update audit_log a set patient_id = o.patient_id from orders o
     where a.entity_type = 'order' and o.id = a.entity_id`,
  `update audit_log set patient_id = details->>'patientId'
     where entity_type = 'message' and jsonb_typeof(details->'patientId') = 'string'`,
  `update audit_log a set patient_id = m.patient_id from message_outbox m
     where a.entity_type = 'message' and a.patient_id is null and m.id = a.entity_id and m.patient_id is not null`,
  'alter table audit_log enable trigger audit_log_append_only',
  'drop index audit_log_entity_idx',
  'drop index audit_log_actor_idx',
  'drop index audit_log_business_idx',
  'create index audit_log_at_idx on audit_log (at, id)',
  'create index audit_log_entity_idx on audit_log (entity_type, entity_id, at, id)',
  'create index audit_log_actor_idx on audit_log (actor_user_id, at, id)',
  'create index audit_log_business_idx on audit_log (business_id, at, id)',
  'create index audit_log_patient_idx on audit_log (patient_id, at, id) where patient_id is not null',
  'create index audit_log_action_idx on audit_log (action, at, id)',
];

const DOWN = [
  'drop index audit_log_action_idx',
  'drop index audit_log_patient_idx',
  'drop index audit_log_business_idx',
  'drop index audit_log_actor_idx',
  'drop index audit_log_entity_idx',
  'drop index audit_log_at_idx',
  'create index audit_log_entity_idx on audit_log (entity_type, entity_id, at)',
  'create index audit_log_actor_idx on audit_log (actor_user_id, at)',
  'create index audit_log_business_idx on audit_log (business_id, at)',
  'alter table audit_log drop column patient_id',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
