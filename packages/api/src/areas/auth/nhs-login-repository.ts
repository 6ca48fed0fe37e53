import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { spendOneTimeRow } from '../../one-time/repository.ts';

/** The queries of NHS login's round trip (nhs-login.ts): the `nhs_logins` rows. */

type Db = Kysely<Database> | Transaction<Database>;

export type NhsLoginRow = {
  id: string;
  orderId: string;
  browserHash: string;
  nonce: string | null;
  codeVerifier: string | null;
};

export async function insertNhsLogin(
  db: Db,
  row: { orderId: string; stateHash: string; browserHash: string; nonce: string; codeVerifier: string },
  now: number,
  expires: number,
): Promise<void> {
  await db
    .insertInto('nhs_logins')
    .values({
      id: Bun.randomUUIDv7(),
      order_id: row.orderId,
      state_hash: row.stateHash,
      browser_hash: row.browserHash,
      nonce: row.nonce,
      code_verifier: row.codeVerifier,
      created: now,
      expires,
    })
    .execute();
}

/** Old unfinished logins are of no use to anyone. */
export async function deleteNhsLoginsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('nhs_logins').where('expires', '<', before).execute();
}

const toRow = (r: {
  id: string;
  order_id: string;
  browser_hash: string;
  nonce: string | null;
  code_verifier: string | null;
}) => ({
  id: r.id,
  orderId: r.order_id,
  browserHash: r.browser_hash,
  nonce: r.nonce,
  codeVerifier: r.code_verifier,
});

/** Takes a started login by its state hash, once, in one statement: undefined when unknown, used or expired. */
export async function takeNhsLogin(db: Db, stateHash: string, now: number): Promise<NhsLoginRow | undefined> {
  const row = await spendOneTimeRow(db, 'nhs_logins', { state_hash: stateHash }, now);
  return row && toRow(row);
}

/** The order of a login by its state hash, used or not (to send a refused callback back to its order). */
export async function nhsLoginOrder(db: Db, stateHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('nhs_logins')
    .select('order_id')
    .where('state_hash', '=', stateHash)
    .executeTakeFirst();
  return row?.order_id;
}

/** The nonce and PKCE verifier are of no further use once the callback has run. */
export async function forgetNhsLoginSecrets(db: Db, id: string): Promise<void> {
  await db.updateTable('nhs_logins').set({ nonce: null, code_verifier: null }).where('id', '=', id).execute();
}
