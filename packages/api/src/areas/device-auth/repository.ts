import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { hashToken, newToken } from '../../sessions/tokens.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** How long a locker's tokens last. An access token is short so a stolen one soon stops working. */
export const credentialPolicy = {
  accessTokenMs: 24 * 60 * 60 * 1000,
  refreshTokenMs: 90 * 24 * 60 * 60 * 1000,
  deviceCodeMs: 10 * 60 * 1000,
  pollIntervalSeconds: 5,
} as const;

export type IssuedCredentials = {
  accessToken: string;
  accessTokenExpires: number;
  refreshToken: string;
  refreshTokenExpires: number;
};

/**
 * Gives a machine a new access and refresh token, revoking whatever it had: one live credential per
 * machine (re-pairing cuts the old locker off). Only hashes are stored, unless `encrypt` is given
 * (test machines, whose tokens the console shows).
 */
export async function issueCredentials(
  db: Db,
  machine: { businessId: string; machineId: string },
  now: number,
  encrypt?: (plain: string) => Promise<string>,
): Promise<IssuedCredentials> {
  await db
    .updateTable('machine_credentials')
    .set({ revoked_at: now, updated: now })
    .where('machine_id', '=', machine.machineId)
    .where('revoked_at', 'is', null)
    .execute();
  const issued: IssuedCredentials = {
    accessToken: newToken(),
    accessTokenExpires: now + credentialPolicy.accessTokenMs,
    refreshToken: newToken(),
    refreshTokenExpires: now + credentialPolicy.refreshTokenMs,
  };
  await db
    .insertInto('machine_credentials')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: machine.businessId,
      machine_id: machine.machineId,
      access_token_hash: hashToken(issued.accessToken),
      access_token_expires_at: issued.accessTokenExpires,
      refresh_token_hash: hashToken(issued.refreshToken),
      refresh_token_expires_at: issued.refreshTokenExpires,
      access_token_encrypted: encrypt ? await encrypt(issued.accessToken) : null,
      refresh_token_encrypted: encrypt ? await encrypt(issued.refreshToken) : null,
      revoked_at: null,
      created: now,
      updated: now,
    })
    .execute();
  return issued;
}

export type TokenCheck =
  | { ok: true; machineId: string; businessId: string; credentialId: string; expiresAt: number; isTest: boolean }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'archived' };

/** Who an access token speaks for. */
export async function checkAccessToken(db: Db, token: string, now: number): Promise<TokenCheck> {
  const row = await db
    .selectFrom('machine_credentials')
    .innerJoin('machines', 'machines.id', 'machine_credentials.machine_id')
    .select([
      'machine_credentials.id',
      'machine_credentials.machine_id',
      'machine_credentials.business_id',
      'machine_credentials.access_token_expires_at',
      'machine_credentials.revoked_at',
      'machines.archived_at',
      'machines.is_test',
    ])
    .where('machine_credentials.access_token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (row.archived_at !== null) return { ok: false, reason: 'archived' };
  if (now >= row.access_token_expires_at) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    machineId: row.machine_id,
    businessId: row.business_id,
    credentialId: row.id,
    expiresAt: row.access_token_expires_at,
    isTest: row.is_test,
  };
}

/**
 * A device code a locker polls with: pending until staff enter its user code for a machine
 * (activated, naming the machine), then used once (consumed) to issue the locker's tokens.
 */
export type DeviceAuthorization = {
  id: string;
  expiresAt: number;
  activated: { businessId: string; machineId: string } | null;
  consumed: boolean;
};

export async function findDeviceAuthByCode(db: Db, deviceCode: string): Promise<DeviceAuthorization | undefined> {
  const row = await db
    .selectFrom('device_authorizations')
    .selectAll()
    .where('device_code_hash', '=', hashToken(deviceCode))
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      expiresAt: row.expires_at,
      activated:
        row.activated_at === null || row.machine_id === null || row.business_id === null
          ? null
          : { businessId: row.business_id, machineId: row.machine_id },
      consumed: row.consumed_at !== null,
    }
  );
}

/** The id of the pending (not yet entered, not expired) device code with this user code, locked. */
export async function findPendingUserCode(db: Db, userCode: string, now: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('device_authorizations')
    .select('id')
    .where('user_code', '=', userCode)
    .where('activated_at', 'is', null)
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
  return row?.id;
}

/** The credential a refresh token belongs to, revoked or not. */
export async function findRefreshCredential(db: Db, refreshToken: string) {
  const row = await db
    .selectFrom('machine_credentials')
    .select(['id', 'business_id', 'machine_id', 'refresh_token_expires_at', 'revoked_at'])
    .where('refresh_token_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      businessId: row.business_id,
      machineId: row.machine_id,
      refreshTokenExpiresAt: row.refresh_token_expires_at,
      revoked: row.revoked_at !== null,
    }
  );
}

/** Stores a new pending device code; expired pending rows go first so their user codes can be used again. */
export async function insertDeviceAuth(
  db: Db,
  row: { id: string; deviceCode: string; userCode: string; expiresAt: number; now: number },
): Promise<void> {
  await db
    .deleteFrom('device_authorizations')
    .where('activated_at', 'is', null)
    .where('expires_at', '<=', row.now)
    .execute();
  await db
    .insertInto('device_authorizations')
    .values({
      id: row.id,
      device_code_hash: hashToken(row.deviceCode),
      user_code: row.userCode,
      expires_at: row.expiresAt,
      business_id: null,
      machine_id: null,
      activated_at: null,
      activated_by_id: null,
      activated_by_display: null,
      consumed_at: null,
      created: row.now,
    })
    .execute();
}

/** Marks a device code used; false when another poll used it first. */
export async function consumeDeviceCode(db: Db, id: string, now: number): Promise<boolean> {
  const consumed = await db
    .updateTable('device_authorizations')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return consumed !== undefined;
}

/** Records that staff entered a device code's user code for a machine. */
export async function activateDeviceCode(
  db: Db,
  id: string,
  activation: { businessId: string; machineId: string; now: number; byId: string; byDisplay: string },
): Promise<void> {
  await db
    .updateTable('device_authorizations')
    .set({
      business_id: activation.businessId,
      machine_id: activation.machineId,
      activated_at: activation.now,
      activated_by_id: activation.byId,
      activated_by_display: activation.byDisplay,
    })
    .where('id', '=', id)
    .execute();
}
