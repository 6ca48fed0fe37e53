import {
  type ContactCodeStatus,
  type Locale,
  type PatientSignUp,
  type SignUpVerification,
  signUpCodes,
} from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import { addressOf } from '../patients/index.ts';

export type Db = Kysely<Database> | Transaction<Database>;
type SignUpRow = Selectable<Database['patient_sign_ups']>;
type Columns = Updateable<Database['patient_sign_ups']>;

export type Channel = 'email' | 'mobile';

/** One contact's code: only its hash is stored; `attempts` counts the wrong tries at it. */
export type CodeState = {
  hash: string | null;
  status: ContactCodeStatus;
  expiresAt: number | null;
  attempts: number;
};

/** What the sign-up form gives (SPEC §5), as stored. */
export type SignUpFields = {
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  email: string | null;
  mobileNumber: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  addressLine3: string | null;
  postTown: string | null;
  postcode: string | null;
};

/** A sign-up as the services see it. */
export type SignUpRecord = SignUpFields & {
  id: string;
  businessId: string;
  status: PatientSignUp['status'];
  emailCode: CodeState;
  mobileCode: CodeState;
  /** The patient it was converted to. */
  patientId: string | null;
  source: 'staff' | 'online';
  /** Online sign-ups: the hash of the browser's token, and until when it reaches the sign-up. */
  accessTokenHash: string | null;
  accessExpiresAt: number | null;
  /** Online sign-ups: how many times codes were sent, and when last. */
  codeSends: number;
  lastCodeSentAt: number | null;
  /**
   * Online sign-ups: the language the visitor chose on the page, for its codes and the patient it
   * becomes; null when they did not choose, and on staff-entered ones (the business's default applies).
   */
  language: Locale | null;
  created: number;
  updated: number;
};

/** A change to a sign-up; each channel's code changes only in the fields given. */
export type SignUpPatch = Partial<
  SignUpFields &
    Pick<SignUpRecord, 'status' | 'patientId' | 'codeSends' | 'lastCodeSentAt' | 'language' | 'updated'> & {
      emailCode: Partial<CodeState>;
      mobileCode: Partial<CodeState>;
    }
>;

export type NewSignUp = SignUpFields &
  Pick<SignUpRecord, 'id' | 'businessId' | 'created' | 'updated'> &
  Partial<
    Pick<SignUpRecord, 'source' | 'accessTokenHash' | 'accessExpiresAt' | 'codeSends' | 'lastCodeSentAt' | 'language'>
  >;

const ms = (value: number | null) => (value === null ? null : Number(value));

const codeOf = (row: SignUpRow, channel: Channel): CodeState =>
  channel === 'email'
    ? {
        hash: row.email_code_hash,
        status: row.email_code_status,
        expiresAt: ms(row.email_code_expires_at),
        attempts: row.email_code_attempts,
      }
    : {
        hash: row.mobile_code_hash,
        status: row.mobile_code_status,
        expiresAt: ms(row.mobile_code_expires_at),
        attempts: row.mobile_code_attempts,
      };

/** The one mapping from a `patient_sign_ups` row. */
function toSignUpRecord(row: SignUpRow): SignUpRecord {
  return {
    id: row.id,
    businessId: row.business_id,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email,
    mobileNumber: row.mobile_number,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    addressLine3: row.address_line3,
    postTown: row.post_town,
    postcode: row.postcode,
    status: row.status,
    emailCode: codeOf(row, 'email'),
    mobileCode: codeOf(row, 'mobile'),
    patientId: row.patient_id,
    source: row.source,
    accessTokenHash: row.access_token_hash,
    accessExpiresAt: ms(row.access_expires_at),
    codeSends: row.code_sends,
    lastCodeSentAt: ms(row.last_code_sent_at),
    language: row.language,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

const maybeRecord = (row: SignUpRow | undefined) => (row ? toSignUpRecord(row) : undefined);

const fieldColumns = {
  firstName: 'first_name',
  lastName: 'last_name',
  dateOfBirth: 'date_of_birth',
  email: 'email',
  mobileNumber: 'mobile_number',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  addressLine3: 'address_line3',
  postTown: 'post_town',
  postcode: 'postcode',
} as const satisfies Record<keyof SignUpFields, keyof Columns>;

/** A form field's column name: what the audit log names a changed field by. */
export const columnOf = (field: keyof SignUpFields): string => fieldColumns[field];

/** The one mapping to `patient_sign_ups` columns: only the fields given. */
function columnsOf(patch: SignUpPatch): Columns {
  const pairs: [keyof Columns, unknown][] = [
    ...Object.entries(fieldColumns).map(([field, column]): [keyof Columns, unknown] => [
      column,
      patch[field as keyof SignUpFields],
    ]),
    ['status', patch.status],
    ['patient_id', patch.patientId],
    ['code_sends', patch.codeSends],
    ['last_code_sent_at', patch.lastCodeSentAt],
    ['language', patch.language],
    ['updated', patch.updated],
  ];
  for (const channel of ['email', 'mobile'] as const) {
    const code = patch[`${channel}Code`];
    if (!code) continue;
    pairs.push(
      [`${channel}_code_hash`, code.hash],
      [`${channel}_code_status`, code.status],
      [`${channel}_code_expires_at`, code.expiresAt],
      [`${channel}_code_attempts`, code.attempts],
    );
  }
  return Object.fromEntries(pairs.filter(([, value]) => value !== undefined)) as Columns;
}

/** A sign-up as core describes it. */
export function toSignUp(record: SignUpRecord): PatientSignUp {
  return {
    id: record.id,
    businessId: record.businessId,
    firstName: record.firstName,
    lastName: record.lastName,
    dateOfBirth: record.dateOfBirth,
    email: record.email,
    mobileNumber: record.mobileNumber,
    address: addressOf({
      address_line1: record.addressLine1,
      address_line2: record.addressLine2,
      address_line3: record.addressLine3,
      post_town: record.postTown,
      postcode: record.postcode,
    }),
    status: record.status,
    created: record.created,
    updated: record.updated,
  };
}

const attemptsLeft = (code: CodeState) =>
  code.hash === null || code.status === 'verified' ? 0 : Math.max(0, signUpCodes.maxAttempts - code.attempts);

/** Where the contact checks stand; the codes (only their hashes are stored) never leave the server. */
export function toVerification(record: SignUpRecord): SignUpVerification {
  const { emailCode, mobileCode } = record;
  return {
    emailCodeStatus: emailCode.status,
    mobileCodeStatus: mobileCode.status,
    emailAttemptsLeft: attemptsLeft(emailCode),
    mobileAttemptsLeft: attemptsLeft(mobileCode),
    emailCodeExpires: emailCode.hash === null ? null : Number(emailCode.expiresAt),
    mobileCodeExpires: mobileCode.hash === null ? null : Number(mobileCode.expiresAt),
  };
}

export const findSignUp = async (db: Db, id: string, lock = false): Promise<SignUpRecord | undefined> => {
  const q = db.selectFrom('patient_sign_ups').selectAll().where('id', '=', id);
  return maybeRecord(await (lock ? q.forUpdate() : q).executeTakeFirst());
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
): Promise<SignUpRecord[]> {
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
  const rows = await query
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(toSignUpRecord);
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
export const insertSignUpRow = async (db: Db, signUp: NewSignUp): Promise<SignUpRecord> => {
  const values: Insertable<Database['patient_sign_ups']> = {
    ...columnsOf(signUp),
    id: signUp.id,
    business_id: signUp.businessId,
    first_name: signUp.firstName,
    last_name: signUp.lastName,
    created: signUp.created,
    updated: signUp.updated,
    ...(signUp.source ? { source: signUp.source } : {}),
    ...(signUp.accessTokenHash !== undefined ? { access_token_hash: signUp.accessTokenHash } : {}),
    ...(signUp.accessExpiresAt !== undefined ? { access_expires_at: signUp.accessExpiresAt } : {}),
  };
  return toSignUpRecord(
    await db.insertInto('patient_sign_ups').values(values).returningAll().executeTakeFirstOrThrow(),
  );
};

/** Changes a sign-up and returns it as it now is. */
export const updateSignUpRow = async (db: Db, id: string, patch: SignUpPatch): Promise<SignUpRecord> =>
  toSignUpRecord(
    await db
      .updateTable('patient_sign_ups')
      .set(columnsOf(patch))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

export async function deleteSignUpRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('patient_sign_ups').where('id', '=', id).execute();
}

/**
 * Removes the `new` online sign-ups of `proven`'s business (other than it) whose every contact is one
 * `proven` has verified, and returns their ids. Staff-entered sign-ups are never removed.
 */
export async function deleteUnfinishedOnlineDuplicates(db: Db, proven: SignUpRecord): Promise<string[]> {
  if (proven.email === null && proven.mobileNumber === null) return [];
  const rows = await db
    .deleteFrom('patient_sign_ups')
    .where('business_id', '=', proven.businessId)
    .where('id', '!=', proven.id)
    .where('source', '=', 'online')
    .where('status', '=', 'new')
    .where((eb) =>
      eb.and([
        proven.email === null
          ? eb('email', 'is', null)
          : eb.or([eb('email', 'is', null), eb('email', '=', proven.email)]),
        proven.mobileNumber === null
          ? eb('mobile_number', 'is', null)
          : eb.or([eb('mobile_number', 'is', null), eb('mobile_number', '=', proven.mobileNumber)]),
        eb.or([eb('email', 'is not', null), eb('mobile_number', 'is not', null)]),
      ]),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The sign-up a browser's sign-up cookie reaches (by the token's hash); `lock` holds it for a change. */
export const findSignUpByAccessHash = async (db: Db, hash: string, lock = false): Promise<SignUpRecord | undefined> => {
  const q = db.selectFrom('patient_sign_ups').selectAll().where('access_token_hash', '=', hash);
  return maybeRecord(await (lock ? q.forUpdate() : q).executeTakeFirst());
};
