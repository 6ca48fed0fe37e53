import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { type StoredPatient, toStoredPatient } from './repository.ts';

export type Db = Kysely<Database> | Transaction<Database>;
/** A patient's WhatsApp opt-in code (only its hash) and the counters of the codes sent to them. */
export type OptInCode = {
  patientId: string;
  businessId: string;
  /** The number the code went to: it opts in that number only. */
  mobileNumber: string;
  codeHash: string | null;
  expiresAt: number;
  attempts: number;
  lastSentAt: number;
  dayStartedAt: number;
  sentInDay: number;
};

const toOptInCode = (row: Selectable<Database['whatsapp_opt_in_codes']>): OptInCode => ({
  patientId: row.patient_id,
  businessId: row.business_id,
  mobileNumber: row.mobile_number,
  codeHash: row.code_hash,
  expiresAt: Number(row.expires_at),
  attempts: row.attempts,
  lastSentAt: Number(row.last_sent_at),
  dayStartedAt: Number(row.day_started_at),
  sentInDay: row.sent_in_day,
});

/** The patient's outstanding code and send counters, locked until the transaction ends. */
export const lockOptInCode = async (db: Db, patientId: string): Promise<OptInCode | undefined> => {
  const row = await db
    .selectFrom('whatsapp_opt_in_codes')
    .selectAll()
    .where('patient_id', '=', patientId)
    .forUpdate()
    .executeTakeFirst();
  return row && toOptInCode(row);
};

/** Stores the patient's new code (replacing any earlier one) with the send counters. */
export const saveOptInCode = (db: Db, code: OptInCode) =>
  db
    .insertInto('whatsapp_opt_in_codes')
    .values({
      patient_id: code.patientId,
      business_id: code.businessId,
      mobile_number: code.mobileNumber,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      attempts: code.attempts,
      last_sent_at: code.lastSentAt,
      day_started_at: code.dayStartedAt,
      sent_in_day: code.sentInDay,
    })
    .onConflict((oc) =>
      oc.column('patient_id').doUpdateSet((eb) => ({
        business_id: eb.ref('excluded.business_id'),
        mobile_number: eb.ref('excluded.mobile_number'),
        code_hash: eb.ref('excluded.code_hash'),
        expires_at: eb.ref('excluded.expires_at'),
        attempts: eb.ref('excluded.attempts'),
        last_sent_at: eb.ref('excluded.last_sent_at'),
        day_started_at: eb.ref('excluded.day_started_at'),
        sent_in_day: eb.ref('excluded.sent_in_day'),
      })),
    )
    .execute();

/** Records a check of the code: another wrong try, or the code used up (hash cleared). */
export const updateOptInCode = (db: Db, patientId: string, patch: { attempts?: number; spent?: true }) =>
  db
    .updateTable('whatsapp_opt_in_codes')
    .set({
      ...(patch.attempts !== undefined ? { attempts: patch.attempts } : {}),
      ...(patch.spent ? { code_hash: null } : {}),
    })
    .where('patient_id', '=', patientId)
    .execute();

/** Takes back the patient's outstanding code (their mobile changed): the send counters stay. */
export const voidOptInCode = (db: Db, patientId: string) =>
  db.updateTable('whatsapp_opt_in_codes').set({ code_hash: null }).where('patient_id', '=', patientId).execute();

export type OptIn = { at: number; mobileNumber: string; byId: string | null; byDisplay: string | null };

/** Sets (or, with null, clears) the patient's WhatsApp opt-in and returns the patient row as it now is. */
export const setPatientOptIn = async (
  db: Db,
  patientId: string,
  optIn: OptIn | null,
  now: number,
): Promise<StoredPatient> =>
  toStoredPatient(
    await db
      .updateTable('patients')
      .set({
        whatsapp_opt_in_at: optIn?.at ?? null,
        whatsapp_opt_in_mobile: optIn?.mobileNumber ?? null,
        whatsapp_opt_in_by_id: optIn?.byId ?? null,
        whatsapp_opt_in_by_display: optIn?.byDisplay ?? null,
        updated: now,
      })
      .where('id', '=', patientId)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

/** The number a patient opted in to WhatsApp on, or null: what the message router asks. */
export async function findWhatsAppOptIn(db: Db, patientId: string): Promise<string | null> {
  const row = await db
    .selectFrom('patients')
    .select(['whatsapp_opt_in_mobile', 'whatsapp_opt_in_at'])
    .where('id', '=', patientId)
    .executeTakeFirst();
  return row?.whatsapp_opt_in_at != null ? row.whatsapp_opt_in_mobile : null;
}
