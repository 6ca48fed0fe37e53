import type { SecondFactor } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;
type Row = Selectable<Database['second_factors']>;

/** A stored factor: what the list shows, and what checking it needs. */
export type StoredFactor = SecondFactor & {
  userId: string;
  totpSecretSealed: string | null;
  credentialId: string | null;
  publicKey: string | null;
  signCount: number | null;
  transports: string[];
};

const toFactor = (r: Row): StoredFactor => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  created: r.created,
  lastUsed: r.last_used_at,
  userId: r.user_id,
  totpSecretSealed: r.totp_secret,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  signCount: r.sign_count === null ? null : Number(r.sign_count),
  transports: r.transports ?? [],
});

/** A user's factors, oldest first; `lock` holds them for the transaction (removing the last one). */
export async function factorsOf(db: Db, userId: string, options: { lock?: boolean } = {}): Promise<StoredFactor[]> {
  let query = db
    .selectFrom('second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created')
    .orderBy('id');
  if (options.lock) query = query.forUpdate();
  return (await query.execute()).map(toFactor);
}

/** What every new factor is, whatever its kind: whose, what it is called and when it was added. */
type NewFactor = { id: string; userId: string; name: string; now: number };

const factorColumns = (f: NewFactor, kind: 'totp' | 'passkey') => ({
  id: f.id,
  user_id: f.userId,
  kind,
  name: f.name,
  created: f.now,
});

export async function insertTotpFactor(db: Db, f: NewFactor & { sealedSecret: string; step: number }): Promise<void> {
  await db
    .insertInto('second_factors')
    .values({
      ...factorColumns(f, 'totp'),
      totp_secret: f.sealedSecret,
      // The code that proved the set-up is spent: it cannot sign in too.
      totp_last_step: f.step,
    })
    .execute();
}

export async function insertPasskeyFactor(
  db: Db,
  f: NewFactor & { credentialId: string; publicKey: string; signCount: number; transports: string[] },
): Promise<void> {
  await db
    .insertInto('second_factors')
    .values({
      ...factorColumns(f, 'passkey'),
      credential_id: f.credentialId,
      public_key: f.publicKey,
      sign_count: f.signCount,
      transports: sql`${sql.val(f.transports)}::text[]`,
    })
    .execute();
}

/**
 * Takes an authenticator-app code's time step for the factor, in one statement: only a step later than
 * the last one taken succeeds, so a code (or an earlier one) is never accepted twice, however many
 * requests race with it.
 */
export async function claimTotpStep(db: Db, factorId: string, step: number, now: number): Promise<boolean> {
  const row = await db
    .updateTable('second_factors')
    .set({ totp_last_step: step, last_used_at: now })
    .where('id', '=', factorId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A passkey's use: its signature counter moves on (only forwards, unless the authenticator keeps none). */
export async function recordPasskeyUse(db: Db, factorId: string, counter: number, now: number): Promise<void> {
  await db
    .updateTable('second_factors')
    .set({ sign_count: counter, last_used_at: now })
    .where('id', '=', factorId)
    .execute();
}

export async function deleteFactor(db: Db, userId: string, id: string): Promise<StoredFactor | undefined> {
  const row = await db
    .deleteFrom('second_factors')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row && toFactor(row);
}

/** Removes every factor and recovery code of a user; answers how many factors there were. */
export async function deleteAllFactors(db: Db, userId: string): Promise<number> {
  const removed = await db.deleteFrom('second_factors').where('user_id', '=', userId).returning('id').execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  return removed.length;
}

/** Replaces a user's recovery codes with new ones (their hashes). */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[], now: number): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((hash) => ({ id: Bun.randomUUIDv7(), user_id: userId, code_hash: hash, created: now })))
    .execute();
}

/** Spends a recovery code, in one statement so two requests cannot both use it; answers whether it was unused. */
export async function spendRecoveryCode(db: Db, userId: string, hash: string, now: number): Promise<boolean> {
  const row = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Whether policy wants the user to sign in with a second factor: support staff while the global setting
 * says so (on when there is no settings row yet, as the column's default), and the users of a business
 * that requires it (a Business role on it, or a Group role on its group).
 */
export async function secondFactorRequired(db: Db, userId: string): Promise<boolean> {
  const row = await sql<{ required: boolean }>`
    select (
      (exists (select 1 from user_roles where user_id = ${userId} and name = 'Support')
        and coalesce((select support_second_factor_required from global_settings limit 1), true))
      or exists (
        select 1
          from user_roles r
          join businesses b
            on (r.name = 'Business' and r.resource_type = 'business' and b.id = r.resource_id)
            or (r.name = 'Group' and r.resource_type = 'group' and b.group_id = r.resource_id)
          join business_feature_settings s on s.business_id = b.id
         where r.user_id = ${userId}
           and (s.settings ->> 'secondFactorRequired') = 'true')
    ) as required`.execute(db);
  return row.rows[0]?.required === true;
}
