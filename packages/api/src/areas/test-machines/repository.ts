import type { Bag } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { toBag } from '../bags/index.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The live credential of a test machine, its tokens still sealed (null: issued without a kept copy). */
export async function liveCredential(db: Db, machineId: string) {
  const row = await db
    .selectFrom('machine_credentials')
    .select(['access_token_encrypted', 'access_token_expires_at', 'refresh_token_encrypted'])
    .where('machine_id', '=', machineId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      sealedAccessToken: row.access_token_encrypted,
      accessTokenExpires: row.access_token_expires_at,
      sealedRefreshToken: row.refresh_token_encrypted,
    }
  );
}

/** Deletes a test machine and everything it reported: test data has no history worth keeping. */
export async function deleteTestMachine(db: Db, machineId: string): Promise<void> {
  // Locked first: a locker's batch of readings in flight then waits, and finds the machine gone, instead
  // of adding readings between their delete and the machine's (which the machine's own check refuses).
  await db.selectFrom('machines').select('id').where('id', '=', machineId).forUpdate().execute();
  for (const table of [
    'locker_event_receipts',
    'temperature_readings',
    'machine_events',
    'machine_status',
    'machine_credentials',
    'device_authorizations',
  ] as const) {
    await db.deleteFrom(table).where('machine_id', '=', machineId).execute();
  }
  await db.updateTable('bags').set({ machine_id: null, location: null }).where('machine_id', '=', machineId).execute();
  await db.updateTable('orders').set({ machine_id: null }).where('machine_id', '=', machineId).execute();
  await db.deleteFrom('machines').where('id', '=', machineId).where('is_test', '=', true).execute();
}

/** The bags a test machine holds, by location. */
export async function machineBags(db: Db, machineId: string): Promise<Bag[]> {
  const rows = await db
    .selectFrom('bags')
    .selectAll()
    .where('machine_id', '=', machineId)
    .orderBy('location')
    .orderBy('id')
    .execute();
  return rows.map(toBag);
}
