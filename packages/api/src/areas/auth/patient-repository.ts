import { patientAuthPolicy } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { camelRow } from '../../rows/camel-row.ts';
import { countTry } from './tries-repository.ts';

/** Every query of the patient's identity checks (patient-service.ts) lives here. */

export type Db = Kysely<Database> | Transaction<Database>;

/** An order and what proves its patient: date of birth and mobile on record. */
export type OrderPatient = {
  orderId: string;
  businessId: string;
  patientId: string;
  dateOfBirth: string | null;
  mobileNumber: string | null;
  /** The business's display id: the NHS number where its display id field validates NHS numbers. */
  displayId: string;
  givenName: string;
  fullName: string;
  /** Set for a deleted patient. */
  deletedAt: number | null;
};

/** An order with what proves its patient; undefined for an unknown order. */
export const findOrderPatient = async (db: Db, orderId: string): Promise<OrderPatient | undefined> => {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('patients as p', (j) =>
      j.onRef('p.id', '=', 'o.patient_id').onRef('p.business_id', '=', 'o.business_id'),
    )
    .select([
      'o.id as order_id',
      'o.business_id',
      'o.patient_id',
      'p.date_of_birth',
      'p.mobile_number',
      'p.display_id',
      'p.given_name',
      'p.full_name',
      'p.deleted_at',
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  return row && { ...camelRow(row), deletedAt: row.deleted_at === null ? null : Number(row.deleted_at) };
};

const windowMs = patientAuthPolicy.lockMinutes * 60_000;

/**
 * Counts one try at an order's link before it is checked, in one statement, so concurrent tries cannot
 * all slip under the limit; a right answer then clears it (`clearWrongTries`). Tries older than the
 * window start the count again, and so does the first try after a lock ran out (never one before it).
 * The try that reaches the limit locks the link; answers whether this try may be checked and until when
 * the link is locked.
 */
export async function reserveTry(
  db: Db,
  orderId: string,
  now: number,
): Promise<{ allowed: boolean; failures: number; lockedUntil: number | null }> {
  const max = patientAuthPolicy.maxWrongTries;
  // The link stays locked for the window.
  const tries = countTry('patient_verifications', now, { max, windowMs, lockMs: windowMs });
  const row = await db
    .insertInto('patient_verifications')
    .values({ order_id: orderId, ...tries.first, updated: now })
    .onConflict((oc) => oc.column('order_id').doUpdateSet({ ...tries.next, updated: now }))
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  const lockedUntil = row.locked_until === null ? null : Number(row.locked_until);
  return { allowed: row.failures <= max, failures: row.failures, lockedUntil };
}

/** A try that was not a wrong answer after all (a right code someone else spent first): it counts for nothing. */
export const returnTry = (db: Db, orderId: string, now: number) =>
  db
    .updateTable('patient_verifications')
    .set((eb) => ({
      failures: sql<number>`greatest(${eb.ref('failures')} - 1, 0)`,
      locked_until: sql<
        number | null
      >`case when ${eb.ref('failures')} - 1 < ${patientAuthPolicy.maxWrongTries} then null else ${eb.ref('locked_until')} end`,
      updated: now,
    }))
    .where('order_id', '=', orderId)
    .execute();

/** A right answer: the link's count starts again. */
export const clearWrongTries = (db: Db, orderId: string, now: number) =>
  db
    .updateTable('patient_verifications')
    .set({ failures: 0, first_failure_at: null, locked_until: null, updated: now })
    .where('order_id', '=', orderId)
    .execute();

/** An order's link: its wrong tries and its texted code. Times are epoch ms. */
export type Verification = {
  failures: number;
  lockedUntil: number | null;
  codeHash: string | null;
  codeExpiresAt: number | null;
  /** The code last spent, until `codeExpiresAt`: sent again, it is "already used", not a wrong try. */
  spentCodeHash: string | null;
  codeSends: number;
  firstSendAt: number | null;
  lastSendAt: number | null;
};

const ms = (value: number | null) => (value === null ? null : Number(value));

const toVerification = (row: Selectable<Database['patient_verifications']>): Verification => ({
  failures: row.failures,
  lockedUntil: ms(row.locked_until),
  codeHash: row.code_hash,
  codeExpiresAt: ms(row.code_expires_at),
  spentCodeHash: row.spent_code_hash,
  codeSends: row.code_sends,
  firstSendAt: ms(row.first_send_at),
  lastSendAt: ms(row.last_send_at),
});

/** The order's verification row, locked for the caller's transaction (made first when missing). */
export async function lockVerification(tx: Transaction<Database>, orderId: string, now: number): Promise<Verification> {
  await tx
    .insertInto('patient_verifications')
    .values({ order_id: orderId, updated: now })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute();
  const row = await tx
    .selectFrom('patient_verifications')
    .selectAll()
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return toVerification(row);
}

export const findVerification = async (db: Db, orderId: string): Promise<Verification | undefined> => {
  const row = await db
    .selectFrom('patient_verifications')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row && toVerification(row);
};

export const setCode = (
  db: Db,
  orderId: string,
  set: { codeHash: string; expiresAt: number; sends: number; firstSendAt: number; now: number },
) =>
  db
    .updateTable('patient_verifications')
    .set({
      code_hash: set.codeHash,
      code_expires_at: set.expiresAt,
      spent_code_hash: null,
      code_sends: set.sends,
      first_send_at: set.firstSendAt,
      last_send_at: set.now,
      updated: set.now,
    })
    .where('order_id', '=', orderId)
    .execute();

/**
 * A code is used once: spent by the right answer, kept as the spent one until it would have expired;
 * false when a concurrent answer spent it first.
 */
export const spendCode = async (db: Db, orderId: string, codeHash: string, now: number): Promise<boolean> =>
  (await db
    .updateTable('patient_verifications')
    .set({ code_hash: null, spent_code_hash: codeHash, updated: now })
    .where('order_id', '=', orderId)
    .where('code_hash', '=', codeHash)
    .returning('order_id')
    .executeTakeFirst()) !== undefined;

// --- mobiles a patient added from their session -------------------------------------------------

/** A mobile a patient added (beside the one on record): pending until its texted code is given back, then verified. */
export type AddedMobile = {
  id: string;
  mobile: string;
  verifiedAt: number | null;
  codeHash: string | null;
  codeExpiresAt: number | null;
  codeAttempts: number;
  codeSentAt: number | null;
};

const toAddedMobile = (row: Selectable<Database['patient_mobiles']>): AddedMobile => ({
  id: row.id,
  mobile: row.mobile,
  verifiedAt: ms(row.verified_at),
  codeHash: row.code_hash,
  codeExpiresAt: ms(row.code_expires_at),
  codeAttempts: row.code_attempts,
  codeSentAt: ms(row.code_sent_at),
});

export const listAddedMobiles = async (db: Db, businessId: string, patientId: string): Promise<AddedMobile[]> =>
  (
    await db
      .selectFrom('patient_mobiles')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('patient_id', '=', patientId)
      .orderBy('created')
      .orderBy('id')
      .execute()
  ).map(toAddedMobile);

/** Locks the patient's row for the caller's transaction: one patient's mobile requests run one at a time. */
export const lockPatientRow = (tx: Transaction<Database>, businessId: string, patientId: string) =>
  tx
    .selectFrom('patients')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', patientId)
    .forUpdate()
    .executeTakeFirst();

/** The patient's own record: the mobile on record (the pharmacy's), for the mobiles list. */
export const findPatientMobileOnRecord = async (
  db: Db,
  businessId: string,
  patientId: string,
): Promise<{ mobileNumber: string | null } | undefined> => {
  const row = await db
    .selectFrom('patients')
    .select('mobile_number')
    .where('business_id', '=', businessId)
    .where('id', '=', patientId)
    .executeTakeFirst();
  return row && { mobileNumber: row.mobile_number };
};

/** A pending (or verified) mobile with a fresh code: made, or its code replaced. */
export const upsertPendingMobile = (
  db: Db,
  row: { businessId: string; patientId: string; mobile: string; codeHash: string; expiresAt: number; now: number },
) =>
  db
    .insertInto('patient_mobiles')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: row.businessId,
      patient_id: row.patientId,
      mobile: row.mobile,
      code_hash: row.codeHash,
      code_expires_at: row.expiresAt,
      code_attempts: 0,
      code_sent_at: row.now,
      created: row.now,
      updated: row.now,
    })
    .onConflict((oc) =>
      oc.columns(['patient_id', 'mobile']).doUpdateSet({
        code_hash: row.codeHash,
        code_expires_at: row.expiresAt,
        code_attempts: 0,
        code_sent_at: row.now,
        updated: row.now,
      }),
    )
    .execute();

/** Counts a try at an added mobile's code before it is checked; answers the row as it now is. */
export const takeMobileCodeTry = async (
  db: Db,
  patientId: string,
  mobile: string,
  now: number,
): Promise<AddedMobile | undefined> => {
  const row = await db
    .updateTable('patient_mobiles')
    .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1), updated: now }))
    .where('patient_id', '=', patientId)
    .where('mobile', '=', mobile)
    .returningAll()
    .executeTakeFirst();
  return row && toAddedMobile(row);
};

/** Verifies an added mobile; false when a concurrent right answer verified it first. */
export const markMobileVerified = async (db: Db, id: string, now: number): Promise<boolean> =>
  (await db
    .updateTable('patient_mobiles')
    .set({ verified_at: now, code_hash: null, code_expires_at: null, code_attempts: 0, updated: now })
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .returning('id')
    .executeTakeFirst()) !== undefined;

export const deletePatientMobile = (db: Db, patientId: string, mobile: string) =>
  db.deleteFrom('patient_mobiles').where('patient_id', '=', patientId).where('mobile', '=', mobile).executeTakeFirst();

/** How many texts of one kind were queued for a patient since a time (the add-mobile codes' hourly cap). */
export const countPatientTexts = async (db: Db, patientId: string, templateKey: string, since: number) =>
  Number(
    (
      await db
        .selectFrom('message_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('patient_id', '=', patientId)
        .where('template_key', '=', templateKey)
        .where('created', '>', since)
        .executeTakeFirstOrThrow()
    ).n,
  );
