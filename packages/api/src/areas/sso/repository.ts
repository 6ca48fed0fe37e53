import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';

import { oneTimeRowUsable, spendOneTimeRow } from '../../one-time/repository.ts';
import type { ProviderRecord } from './config.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The one mapping of an `identity_providers` row, for every repository that reads the table. */
export const toProviderRecord = (row: Selectable<Database['identity_providers']>): ProviderRecord => ({
  id: row.id,
  name: row.name,
  type: row.type,
  configuration: row.configuration,
  created: row.created,
  updated: row.updated,
  businessId: row.business_id,
  groupId: row.group_id,
});
/** A started sign-in: the browser that started it, where it returns, and the OIDC secrets it keeps. */
export type SsoLogin = {
  id: string;
  identityProviderId: string;
  browserHash: string;
  nonce: string | null;
  codeVerifier: string | null;
  returnPath: string;
};

const toSsoLogin = (row: Selectable<Database['sso_logins']>): SsoLogin => ({
  id: row.id,
  identityProviderId: row.identity_provider_id,
  browserHash: row.browser_hash,
  nonce: row.nonce,
  codeVerifier: row.code_verifier,
  returnPath: row.return_path,
});

/** The SQL of single sign-on: started sign-ins, seen SAML assertions, the cli's browser hand-off. */

export async function findProvider(db: Db, id: string): Promise<ProviderRecord | undefined> {
  const row = await db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toProviderRecord(row);
}

/**
 * Whether the user holds a role outside a provider's business or group (a Support or Developer role,
 * another business, another group): such a user may not sign in through that provider.
 */
export async function userHasRoleOutside(
  db: Db,
  userId: string,
  scope: { businessId: string | null; groupId: string | null },
): Promise<boolean> {
  const roles = await db
    .selectFrom('user_roles')
    .select(['resource_type', 'resource_id'])
    .where('user_id', '=', userId)
    .execute();
  const groupBusinesses =
    scope.groupId === null
      ? new Set<string>()
      : new Set(
          (await db.selectFrom('businesses').select('id').where('group_id', '=', scope.groupId).execute()).map(
            (b) => b.id,
          ),
        );
  const inside = (role: { resource_type: string | null; resource_id: string | null }) =>
    scope.businessId !== null
      ? role.resource_type === 'business' && role.resource_id === scope.businessId
      : (role.resource_type === 'group' && role.resource_id === scope.groupId) ||
        (role.resource_type === 'business' && role.resource_id !== null && groupBusinesses.has(role.resource_id));
  return roles.some((role) => !inside(role));
}

export async function insertSsoLogin(
  db: Db,
  row: {
    identityProviderId: string;
    stateHash: string;
    browserHash: string;
    nonce: string | null;
    codeVerifier: string | null;
    returnPath: string;
    now: number;
    expires: number;
  },
): Promise<void> {
  await db
    .insertInto('sso_logins')
    .values({
      id: Bun.randomUUIDv7(),
      identity_provider_id: row.identityProviderId,
      state_hash: row.stateHash,
      browser_hash: row.browserHash,
      nonce: row.nonce,
      code_verifier: row.codeVerifier,
      return_path: row.returnPath,
      created: row.now,
      expires: row.expires,
    })
    .execute();
}

export async function deleteSsoLoginsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('sso_logins').where('expires', '<', before).execute();
}

/** Takes a started sign-in by its state hash, once: null when unknown, used or expired. */
export async function takeSsoLogin(db: Db, stateHash: string, now: number): Promise<SsoLogin | undefined> {
  const row = await spendOneTimeRow(db, 'sso_logins', { state_hash: stateHash }, now);
  return row && toSsoLogin(row);
}

export async function forgetSsoSecrets(db: Db, id: string): Promise<void> {
  await db.updateTable('sso_logins').set({ nonce: null, code_verifier: null }).where('id', '=', id).execute();
}

export const ssoLoginUsable = (db: Db, stateHash: string, now: number): Promise<boolean> =>
  oneTimeRowUsable(db, 'sso_logins', { state_hash: stateHash }, now);

/** Marks a sign-in used whatever its expiry (node-saml's remove); true when this call took it. */
export async function markSsoLoginUsed(db: Db, stateHash: string, now: number): Promise<boolean> {
  const row = await db
    .updateTable('sso_logins')
    .set({ used: now })
    .where('state_hash', '=', stateHash)
    .where('used', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The sign-in a SAML response answered (by its request key): its id, browser and return path. */
export async function findSsoLoginByState(
  db: Db,
  stateHash: string,
): Promise<Pick<SsoLogin, 'id' | 'browserHash' | 'returnPath'> | undefined> {
  const row = await db
    .selectFrom('sso_logins')
    .select(['id', 'browser_hash', 'return_path'])
    .where('state_hash', '=', stateHash)
    .executeTakeFirst();
  return row && { id: row.id, browserHash: row.browser_hash, returnPath: row.return_path };
}

// --- SAML continuations: a checked response waiting for the browser that started the sign-in -------

export async function insertSsoContinuation(
  db: Db,
  row: {
    ticketHash: string;
    identityProviderId: string;
    ssoLoginId: string;
    browserHash: string;
    subject: string;
    email: string;
    returnPath: string;
    now: number;
    expires: number;
    authMethods: string[];
  },
): Promise<void> {
  await db
    .insertInto('sso_continuations')
    .values({
      id: Bun.randomUUIDv7(),
      ticket_hash: row.ticketHash,
      identity_provider_id: row.identityProviderId,
      sso_login_id: row.ssoLoginId,
      browser_hash: row.browserHash,
      subject: row.subject,
      email: row.email,
      return_path: row.returnPath,
      auth_methods: sql`${sql.val(row.authMethods)}::text[]`,
      created: row.now,
      expires: row.expires,
    })
    .execute();
}

export async function deleteSsoContinuationsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('sso_continuations').where('expires', '<', before).execute();
}

/**
 * Takes a continuation once, and only in its own browser (one statement): undefined when the ticket is
 * unknown, used, expired or the browser is another one (then nothing changes; see `findSsoContinuation`).
 */
export async function takeSsoContinuation(
  db: Db,
  ticketHash: string,
  browserHash: string,
  now: number,
): Promise<
  { identityProviderId: string; subject: string; email: string; returnPath: string; authMethods: string[] } | undefined
> {
  const row = await spendOneTimeRow(
    db,
    'sso_continuations',
    { ticket_hash: ticketHash, browser_hash: browserHash },
    now,
  );
  return (
    row && {
      identityProviderId: row.identity_provider_id,
      subject: row.subject,
      email: row.email,
      returnPath: row.return_path,
      authMethods: row.auth_methods ?? [],
    }
  );
}

/** A continuation by its ticket whatever its state: to say why one was not taken. */
export async function findSsoContinuation(
  db: Db,
  ticketHash: string,
): Promise<{ identityProviderId: string; used: number | null; expires: number } | undefined> {
  const row = await db
    .selectFrom('sso_continuations')
    .select(['identity_provider_id', 'used', 'expires'])
    .where('ticket_hash', '=', ticketHash)
    .executeTakeFirst();
  return row && { identityProviderId: row.identity_provider_id, used: row.used, expires: row.expires };
}

export async function deleteAssertionsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('sso_assertions').where('expires', '<', before).execute();
}

/** Records an assertion id; throws the unique violation of a replay. */
export async function insertAssertion(db: Db, idpId: string, assertionId: string, expires: number): Promise<void> {
  await db
    .insertInto('sso_assertions')
    .values({ identity_provider_id: idpId, assertion_id: assertionId, expires })
    .execute();
}

// --- the cli's browser hand-off -------------------------------------------------------------------

export async function deleteCliSignInsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('cli_sign_ins').where('expires', '<', before).execute();
}

export async function insertCliSignIn(
  db: Db,
  row: { deviceHash: string; userCode: string; now: number; expires: number },
): Promise<void> {
  await db
    .insertInto('cli_sign_ins')
    .values({
      id: Bun.randomUUIDv7(),
      device_hash: row.deviceHash,
      user_code: row.userCode,
      created: row.now,
      expires: row.expires,
    })
    .execute();
}

/**
 * Claims an open sign-in for the approving user, in one conditional statement: of two approvals (or an
 * approval racing the expiry), one gets the row, the other nothing. Answers the row's id, or undefined.
 */
export async function claimCliSignIn(db: Db, userCode: string, userId: string, now: number) {
  return db
    .updateTable('cli_sign_ins')
    .set({ user_id: userId })
    .where('user_code', '=', userCode)
    .where('user_id', 'is', null)
    .where('expires', '>', now)
    .returning('id')
    .executeTakeFirst();
}

/** Seals the claimed sign-in's session token in its row, for the cli to collect once. */
export async function storeCliSignInToken(
  db: Db,
  id: string,
  approval: { userId: string; tokenSealed: string; sessionExpires: number },
): Promise<boolean> {
  const row = await db
    .updateTable('cli_sign_ins')
    .set({ token_sealed: approval.tokenSealed, session_expires: approval.sessionExpires })
    .where('id', '=', id)
    .where('user_id', '=', approval.userId)
    .where('token_sealed', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes an approved sign-in (the row goes as its token is handed out), once. */
export async function takeApprovedCliSignIn(
  db: Db,
  deviceHash: string,
): Promise<{ id: string; tokenSealed: string | null; sessionExpires: number | null } | undefined> {
  const row = await db
    .deleteFrom('cli_sign_ins')
    .where('device_hash', '=', deviceHash)
    .where('token_sealed', 'is not', null)
    .returningAll()
    .executeTakeFirst();
  return row && { id: row.id, tokenSealed: row.token_sealed, sessionExpires: row.session_expires };
}

export async function cliSignInPending(db: Db, deviceHash: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('cli_sign_ins')
    .select('id')
    .where('device_hash', '=', deviceHash)
    .where('expires', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}
