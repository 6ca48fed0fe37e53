import { type DeliveryFailure, isNhsNumber, type Locale, type Patient } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { containsIn } from '../../lists/contains-repository.ts';
import type { PatientValues } from './rules.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type PatientRow = Selectable<Database['patients']>;

const failureOf = (value: unknown): DeliveryFailure | null => {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<DeliveryFailure> | null;
  return v && typeof v.error === 'string' && typeof v.timestamp === 'number'
    ? { error: v.error, timestamp: v.timestamp }
    : null;
};

type AddressColumns = Pick<PatientRow, 'address_line1' | 'address_line2' | 'address_line3' | 'post_town' | 'postcode'>;

/** The address of a patient or sign-up row: null when every line is. */
export function addressOf(row: AddressColumns): Patient['address'] {
  const { address_line1, address_line2, address_line3, post_town, postcode } = row;
  if ([address_line1, address_line2, address_line3, post_town, postcode].every((l) => l === null)) return null;
  return { line1: address_line1, line2: address_line2, line3: address_line3, postTown: post_town, postcode };
}

/**
 * A patient as this area keeps it: core's Patient with what its forms and its WhatsApp opt-in read
 * beside it: the name's parts, and when the opt-in was made whatever number it was made on (core's
 * `whatsAppOptIn` holds only on the current mobile). `toPatient` is how a patient leaves the area.
 */
export type StoredPatient = Patient & { givenName: string; familyName: string; whatsAppOptInAt: number | null };

/** A patient's row as the area's StoredPatient; snake_case stops here. */
export function toStoredPatient(row: PatientRow): StoredPatient {
  return {
    id: row.id,
    businessId: row.business_id,
    displayId: row.display_id,
    name: row.full_name,
    dateOfBirth: row.date_of_birth,
    email: row.email,
    mobileNumber: row.mobile_number,
    address: addressOf(row),
    deleted:
      row.deleted_at === null
        ? null
        : {
            deletedAt: Number(row.deleted_at),
            deletedById: row.deleted_by_id ?? '',
            deletedByDisplayName: row.deleted_by_display ?? '',
          },
    lastEmailFailure: failureOf(row.last_email_failure),
    lastSmsFailure: failureOf(row.last_sms_failure),
    // An opt-in holds only for the number it was made on (docs/decisions/messaging.md, WhatsApp opt-in).
    whatsAppOptIn:
      row.whatsapp_opt_in_at !== null && row.whatsapp_opt_in_mobile === row.mobile_number && row.mobile_number
        ? {
            mobileNumber: row.mobile_number,
            at: Number(row.whatsapp_opt_in_at),
            byDisplayName: row.whatsapp_opt_in_by_display ?? '',
          }
        : null,
    created: Number(row.created),
    updated: Number(row.updated),
    givenName: row.given_name,
    familyName: row.family_name,
    whatsAppOptInAt: row.whatsapp_opt_in_at === null ? null : Number(row.whatsapp_opt_in_at),
  };
}

/** A patient as core describes it. */
export function toPatient(stored: StoredPatient): Patient {
  const { givenName: _given, familyName: _family, whatsAppOptInAt: _optedIn, ...patient } = stored;
  return patient;
}

/** The stored columns of checked values. */
export const columnsOf = (v: PatientValues) => ({
  display_id: v.displayId,
  given_name: v.givenName,
  family_name: v.familyName,
  full_name: v.fullName,
  date_of_birth: v.dateOfBirth,
  email: v.email,
  mobile_number: v.mobileNumber,
  address_line1: v.addressLine1,
  address_line2: v.addressLine2,
  address_line3: v.addressLine3,
  post_town: v.postTown,
  postcode: v.postcode,
});

/**
 * A stored patient's columns as `columnsOf` writes them: what an update compares its new columns with,
 * to name the ones it changes.
 */
export const storedColumnsOf = (p: StoredPatient): Record<keyof ReturnType<typeof columnsOf>, unknown> => ({
  display_id: p.displayId,
  given_name: p.givenName,
  family_name: p.familyName,
  full_name: p.name,
  date_of_birth: p.dateOfBirth,
  email: p.email,
  mobile_number: p.mobileNumber,
  address_line1: p.address?.line1 ?? null,
  address_line2: p.address?.line2 ?? null,
  address_line3: p.address?.line3 ?? null,
  post_town: p.address?.postTown ?? null,
  postcode: p.address?.postcode ?? null,
});

/** The business a patient is written to, with its archive mark and feature settings (one query). */
export async function findBusinessForPatients(db: Db, businessId: string) {
  return db
    .selectFrom('businesses as b')
    .leftJoin('business_feature_settings as s', 's.business_id', 'b.id')
    .select(['b.id', 'b.archived_at as archivedAt', 's.settings'])
    .where('b.id', '=', businessId)
    .executeTakeFirst();
}

const stored = (row: PatientRow | undefined): StoredPatient | undefined => row && toStoredPatient(row);

/**
 * The language the patient chose on their page (null until they choose): their page and their next
 * messages, codes included, are written in it.
 */
export async function findPatientLanguage(db: Db, patientId: string): Promise<Locale | null> {
  const row = await db.selectFrom('patients').select('language').where('id', '=', patientId).executeTakeFirst();
  return row?.language === 'en' || row?.language === 'cy' ? row.language : null;
}

export const findPatient = async (db: Db, id: string): Promise<StoredPatient | undefined> =>
  stored(await db.selectFrom('patients').selectAll().where('id', '=', id).executeTakeFirst());

/** The current (not deleted) patient of a business with this display id: at most one, by a unique index. */
export const findCurrentPatientByDisplayId = (db: Db, businessId: string, displayId: string) =>
  db
    .selectFrom('patients')
    .select('id')
    .where('business_id', '=', businessId)
    .where('display_id', '=', displayId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export const lockPatient = async (db: Db, id: string): Promise<StoredPatient | undefined> =>
  stored(await db.selectFrom('patients').selectAll().where('id', '=', id).forUpdate().executeTakeFirst());

export async function findPatients(db: Db, ids: readonly string[]): Promise<StoredPatient[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('patients')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return rows.map(toStoredPatient);
}

/**
 * What a typed mobile prefix looks like stored (+447…): '07700 9' → '+447700 9' without blanks;
 * undefined when the filter is not a phone number at all.
 */
export function mobilePrefixOf(filter: string): string | undefined {
  const compact = filter.replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return undefined;
  if (compact.startsWith('+')) return compact;
  if (compact.startsWith('0')) return `+44${compact.slice(1)}`;
  if (compact.startsWith('44')) return `+${compact}`;
  return undefined;
}

export type ListQuery = {
  businessId: string;
  filter?: string;
  onlyCurrent: boolean;
  onlyWithIssues: boolean;
  after?: string;
  limit: number;
};

/**
 * A business's patients by id (time-sortable, so new patients land on later pages and a page never
 * repeats), strictly after `after`, `limit + 1` of them. The filter matches anywhere in the full name,
 * the email, the display id or the mobile, in any case (lists/contains-repository.ts); a whole NHS
 * number is looked up on the display-id index. Otherwise the walk follows unique (business_id, id) and
 * stops at a page.
 *
 * "Contains" reads the trigram index (migrations 0013, 0053) for the rows it holds and scans the rows an
 * import wrote that the job `patients.searchIndex` has not indexed yet (search_pending): the two halves
 * are disjoint and each sorted by id, so the answer is exact the moment an import commits. They are two
 * queries under `union all` because PostgreSQL folds `(not pending and X) or (pending and X)` back into
 * `X`, and then no partial index serves it; the literal `search_pending` keeps each half's index usable.
 */
export async function listPatients(db: Db, q: ListQuery): Promise<StoredPatient[]> {
  let query = db.selectFrom('patients').selectAll().where('business_id', '=', q.businessId);
  if (q.onlyCurrent) query = query.where('deleted_at', 'is', null);
  if (q.onlyWithIssues) {
    query = query.where((eb) =>
      eb.or([eb('last_sms_failure', 'is not', null), eb('last_email_failure', 'is not', null)]),
    );
  }
  if (q.after) query = query.where('id', '>', q.after);
  const filter = q.filter?.trim();
  const nhsNumber = filter?.replace(/[\s-]/g, '');
  if (nhsNumber && isNhsNumber(nhsNumber)) {
    // A whole NHS number (what a pharmacist scans or types most): the display-id index alone answers.
    query = query.where('display_id', '=', nhsNumber);
  } else if (filter) {
    // Anywhere in the full name, email, display id or mobile, in any case; in the display id and the
    // mobile also as they are stored (a typed '943 476' or '07700 900' is '943476' and '+44770090…' there).
    const compact = filter.replace(/[\s-]/g, '');
    const matches = query
      .where(
        containsIn('patients', {
          full_name: [filter],
          email: [filter],
          display_id: [filter, compact],
          mobile_number: [filter, compact, mobilePrefixOf(filter) ?? ''],
        }),
      )
      .orderBy('id')
      .limit(q.limit + 1);
    const indexed = matches.where(sql<boolean>`not search_pending`);
    const pending = matches.where(sql<boolean>`search_pending`);
    const { rows } = await sql<PatientRow>`
      select * from ((${indexed}) union all (${pending})) p order by id limit ${q.limit + 1}`.execute(db);
    return rows.map(toStoredPatient);
  }
  const rows = await query
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(toStoredPatient);
}

/** Stores a new patient as it is. */
export const insertPatientRow = async (db: Db, row: Insertable<Database['patients']>): Promise<StoredPatient> =>
  toStoredPatient(await db.insertInto('patients').values(row).returningAll().executeTakeFirstOrThrow());

/** Changes a patient's columns and returns the row as it now is. */
export const updatePatientRow = async (
  db: Db,
  id: string,
  patch: Updateable<Database['patients']>,
): Promise<StoredPatient> =>
  toStoredPatient(
    await db.updateTable('patients').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
  );
