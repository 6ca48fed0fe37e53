import type { Db } from './policy-repository.ts';

/*
 * Removing personal data while keeping the rows the monthly figures count (docs/decisions/retention.md):
 * an order keeps its states, times, charges and payment amounts; a message its channel, template and
 * status; a patient its business and the times it was added and removed.
 */

/** What an anonymised order shows where its patient's name was. */
export const ANONYMISED_NAME = 'Anonymised';
/** What an erased patient shows as a name. */
export const ERASED_NAME = 'Erased patient';

/**
 * Strips the personal fields of these orders of one business and of what hangs off them: messages
 * emptied, timeline names removed, card payment references blanked, patient sessions, verification codes
 * and short links deleted, bags' PINs cleared. Answers how many orders it anonymised.
 */
export async function anonymiseOrders(db: Db, businessId: string, ids: string[], now: number): Promise<number> {
  if (ids.length === 0) return 0;
  const done = await db
    .updateTable('orders')
    .set({
      patient_name: ANONYMISED_NAME,
      patient_details: null,
      barcode: '',
      pin: null,
      pin_lookup: null,
      pin_reveal_reason: null,
      pin_hold_reason: null,
      exemption_details: null,
      cancel_reason: null,
      last_email_status: null,
      last_notification_status: null,
      anonymised_at: now,
    })
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .where('anonymised_at', 'is', null)
    .executeTakeFirst();
  await db
    .updateTable('order_events')
    .set({ full_patient_name: null, patient_display_id: null, barcode: null })
    .where('business_id', '=', businessId)
    .where('order_id', 'in', ids)
    .execute();
  await emptyMessages(db, (q) => q.where('business_id', '=', businessId).where('order_id', 'in', ids));
  await db
    .updateTable('payment_attempts')
    .set({ your_consumer_reference: '', post_url: null, reason: null })
    .where('business_id', '=', businessId)
    .where('order_id', 'in', ids)
    .execute();
  await db
    .updateTable('bags')
    .set({ pin: null })
    .where('business_id', '=', businessId)
    .where('order_id', 'in', ids)
    .execute();
  await db.deleteFrom('patient_sessions').where('order_id', 'in', ids).execute();
  await db.deleteFrom('patient_verifications').where('order_id', 'in', ids).execute();
  await db.deleteFrom('short_urls').where('business_id', '=', businessId).where('order_id', 'in', ids).execute();
  return Number(done.numUpdatedRows);
}

/**
 * Empties the content of the outbox messages `where` picks: recipient, subject, body and what providers
 * said. One still waiting to be sent is failed first, so the sender never sends an emptied message.
 */
async function emptyMessages(
  db: Db,
  // biome-ignore lint/suspicious/noExplicitAny: a where clause on message_outbox, built by the caller.
  where: (q: any) => any,
): Promise<void> {
  await where(
    db.updateTable('message_outbox').set({
      recipient: '',
      subject: null,
      body: '',
      last_error: null,
      provider_details: null,
    }),
  ).execute();
  await where(
    db
      .updateTable('message_outbox')
      .set({ status: 'failed', last_error: 'Not sent: the patient was erased or anonymised' })
      .where('status', '=', 'pending'),
  ).execute();
}

export type ErasedPatient = { id: string; businessId: string; deletedAt: number | null; erasedAt: number | null };

/** The patient row, locked for the erasure; null when there is none. */
export async function lockPatient(db: Db, id: string): Promise<ErasedPatient | null> {
  const row = await db
    .selectFrom('patients')
    .select(['id', 'business_id', 'deleted_at', 'erased_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        businessId: row.business_id,
        deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
        erasedAt: row.erased_at === null ? null : Number(row.erased_at),
      }
    : null;
}

/** How many of the patient's orders are still waiting to be loaded or inside a locker. */
export async function liveOrderCount(db: Db, businessId: string, patientId: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('patient_id', '=', patientId)
    .where('status', 'not in', ['collected', 'cancelled', 'removed'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Ids of the patient's orders not yet anonymised. */
export async function ordersOfPatient(db: Db, businessId: string, patientId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('business_id', '=', businessId)
    .where('patient_id', '=', patientId)
    .where('anonymised_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The patient's own fields removed (the row stays, deleted if it was not, for the monthly figures), with
 * the messages to them that were about no order, their timeline names, mobiles, WhatsApp codes, patient
 * sessions and online sign-ups.
 */
export async function erasePatientRow(
  db: Db,
  patient: ErasedPatient,
  by: { userId: string | null; display: string },
  now: number,
): Promise<void> {
  await db
    .updateTable('patients')
    .set({
      display_id: `erased-${patient.id}`,
      given_name: '',
      family_name: '',
      full_name: ERASED_NAME,
      date_of_birth: null,
      email: null,
      mobile_number: null,
      address_line1: null,
      address_line2: null,
      address_line3: null,
      post_town: null,
      postcode: null,
      last_sms_failure: null,
      last_email_failure: null,
      whatsapp_opt_in_at: null,
      whatsapp_opt_in_mobile: null,
      whatsapp_opt_in_by_id: null,
      whatsapp_opt_in_by_display: null,
      deleted_at: patient.deletedAt ?? now,
      ...(patient.deletedAt === null ? { deleted_by_id: by.userId, deleted_by_display: by.display } : {}),
      erased_at: now,
      updated: now,
    })
    .where('id', '=', patient.id)
    .execute();
  await emptyMessages(db, (q) => q.where('patient_id', '=', patient.id));
  await db
    .updateTable('order_events')
    .set({ full_patient_name: null, patient_display_id: null })
    .where('business_id', '=', patient.businessId)
    .where('patient_id', '=', patient.id)
    .execute();
  await db.deleteFrom('patient_mobiles').where('patient_id', '=', patient.id).execute();
  await db.deleteFrom('whatsapp_opt_in_codes').where('patient_id', '=', patient.id).execute();
  await db.deleteFrom('patient_sessions').where('patient_id', '=', patient.id).execute();
  await db.deleteFrom('patient_sign_ups').where('patient_id', '=', patient.id).execute();
}
