import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { camelRow } from '../rows/camel-row.ts';

/** Every query on patient sessions lives here. */

type Db = Kysely<Database> | Transaction<Database>;

export const insertPatientSession = (db: Db, row: Insertable<Database['patient_sessions']>) =>
  db.insertInto('patient_sessions').values(row).execute();

/**
 * The session of a token hash with its patient's given name; a patient deleted since (erased by the
 * pharmacy) is reported as such, so the session ends with them.
 */
export type PatientSessionRecord = {
  id: string;
  businessId: string;
  patientId: string;
  orderId: string;
  expiresAt: number;
  idleExpiresAt: number;
  lastSeen: number;
  revokedAt: number | null;
  givenName: string;
  fullName: string;
  /** Set when the patient was deleted since. */
  patientDeletedAt: number | null;
};

const ms = (value: number | null) => (value === null ? null : Number(value));

export const findPatientSessionByHash = async (
  db: Db,
  tokenHash: string,
): Promise<PatientSessionRecord | undefined> => {
  const row = await db
    .selectFrom('patient_sessions as s')
    .innerJoin('patients as p', (j) =>
      j.onRef('p.id', '=', 's.patient_id').onRef('p.business_id', '=', 's.business_id'),
    )
    .select([
      's.id',
      's.business_id',
      's.patient_id',
      's.order_id',
      's.expires_at',
      's.idle_expires_at',
      's.last_seen',
      's.revoked_at',
      'p.given_name',
      'p.full_name',
      'p.deleted_at as patient_deleted_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      ...camelRow(row),
      expiresAt: Number(row.expires_at),
      idleExpiresAt: Number(row.idle_expires_at),
      lastSeen: Number(row.last_seen),
      revokedAt: ms(row.revoked_at),
      patientDeletedAt: ms(row.patient_deleted_at),
    }
  );
};

export const touchPatientSession = (db: Db, id: string, now: number, idleExpiresAt: number) =>
  db
    .updateTable('patient_sessions')
    .set({ last_seen: now, idle_expires_at: idleExpiresAt })
    .where('id', '=', id)
    .execute();

export const revokePatientSessionByHash = (db: Db, tokenHash: string, now: number) =>
  db
    .updateTable('patient_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
