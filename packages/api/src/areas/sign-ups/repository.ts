import { type PatientSignUp, type SignUpVerification, signUpCodes } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import { addressOf } from '../patients/index.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type SignUpRow = Selectable<Database['patient_sign_ups']>;

/** A sign-up as core describes it. */
export function toSignUp(row: SignUpRow): PatientSignUp {
  return {
    id: row.id,
    businessId: row.business_id,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email,
    mobileNumber: row.mobile_number,
    address: addressOf(row),
    status: row.status,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

const attemptsLeft = (hash: string | null, status: string, attempts: number) =>
  hash === null || status === 'verified' ? 0 : Math.max(0, signUpCodes.maxAttempts - attempts);

/** Where the contact checks stand; the codes (only their hashes are stored) never leave the server. */
export function toVerification(row: SignUpRow): SignUpVerification {
  return {
    emailCodeStatus: row.email_code_status,
    mobileCodeStatus: row.mobile_code_status,
    emailAttemptsLeft: attemptsLeft(row.email_code_hash, row.email_code_status, row.email_code_attempts),
    mobileAttemptsLeft: attemptsLeft(row.mobile_code_hash, row.mobile_code_status, row.mobile_code_attempts),
    emailCodeExpires: row.email_code_hash === null ? null : Number(row.email_code_expires_at),
    mobileCodeExpires: row.mobile_code_hash === null ? null : Number(row.mobile_code_expires_at),
  };
}

export const findSignUp = (db: Db, id: string, lock = false): Promise<SignUpRow | undefined> => {
  const q = db.selectFrom('patient_sign_ups').selectAll().where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
};

const PAST = ['confirmed', 'rejected'] as const;
const WAITING = ['new', 'validated'] as const;

/**
 * A business's sign-ups by id (keyset on the (business_id, status, id) index), strictly after `after`,
 * `limit + 1` of them. Sign-ups are few per business, so the prefix filter runs on that index's rows.
 */
export async function listSignUpRows(
  db: Db,
  q: { businessId: string; past: boolean; filter?: string; mobilePrefix?: string; after?: string; limit: number },
): Promise<SignUpRow[]> {
  let query = db
    .selectFrom('patient_sign_ups')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('status', 'in', q.past ? [...PAST] : [...WAITING]);
  const filter = q.filter?.trim();
  if (filter) {
    // Anywhere in "first last", the email or the mobile (also as stored, +447…), in any case.
    query = query.where(contains('patient_sign_ups', filter, q.mobilePrefix ?? ''));
  }
  if (q.after) query = query.where('id', '>', q.after);
  return query
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
}

export async function countSignUps(db: Db, businessId: string, past: boolean): Promise<number> {
  const row = await db
    .selectFrom('patient_sign_ups')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('business_id', '=', businessId)
    .where('status', 'in', past ? [...PAST] : [...WAITING])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores a new sign-up as it is. */
export const insertSignUpRow = (db: Db, row: Insertable<Database['patient_sign_ups']>): Promise<SignUpRow> =>
  db.insertInto('patient_sign_ups').values(row).returningAll().executeTakeFirstOrThrow();

/** Changes a sign-up's columns and returns the row as it now is. */
export const updateSignUpRow = (
  db: Db,
  id: string,
  patch: Updateable<Database['patient_sign_ups']>,
): Promise<SignUpRow> =>
  db.updateTable('patient_sign_ups').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export async function deleteSignUpRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('patient_sign_ups').where('id', '=', id).execute();
}

/**
 * Removes the `new` online sign-ups of `proven`'s business (other than it) whose every contact is one
 * `proven` has verified, and returns their ids. Staff-entered sign-ups are never removed.
 */
export async function deleteUnfinishedOnlineDuplicates(db: Db, proven: SignUpRow): Promise<string[]> {
  if (proven.email === null && proven.mobile_number === null) return [];
  const rows = await db
    .deleteFrom('patient_sign_ups')
    .where('business_id', '=', proven.business_id)
    .where('id', '!=', proven.id)
    .where('source', '=', 'online')
    .where('status', '=', 'new')
    .where((eb) =>
      eb.and([
        proven.email === null
          ? eb('email', 'is', null)
          : eb.or([eb('email', 'is', null), eb('email', '=', proven.email)]),
        proven.mobile_number === null
          ? eb('mobile_number', 'is', null)
          : eb.or([eb('mobile_number', 'is', null), eb('mobile_number', '=', proven.mobile_number)]),
        eb.or([eb('email', 'is not', null), eb('mobile_number', 'is not', null)]),
      ]),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The sign-up a browser's sign-up cookie reaches (by the token's hash); `lock` holds it for a change. */
export const findSignUpByAccessHash = (db: Db, hash: string, lock = false): Promise<SignUpRow | undefined> => {
  const q = db.selectFrom('patient_sign_ups').selectAll().where('access_token_hash', '=', hash);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
};

/** A business as the public sign-up page needs it: its name, archive mark and stored feature settings. */
export const findSignUpBusiness = (db: Db, id: string) =>
  db.selectFrom('businesses').select(['id', 'name', 'archived_at']).where('id', '=', id).executeTakeFirst();
