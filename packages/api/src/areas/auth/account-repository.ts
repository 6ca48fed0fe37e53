import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/** Every query on an account's activity: last sign-in, disabling and enabling (issue 37 §2). */

type Db = Kysely<Database> | Transaction<Database>;

export type AccountStatusRow = {
  lastSignIn: number | null;
  disabledAt: number | null;
  disabledReason: 'inactive' | null;
};

export async function accountStatusOf(db: Db, userId: string): Promise<AccountStatusRow | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['last_sign_in', 'disabled_at', 'disabled_reason'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return (
    row && {
      lastSignIn: row.last_sign_in,
      disabledAt: row.disabled_at,
      disabledReason: row.disabled_reason === 'inactive' ? 'inactive' : null,
    }
  );
}

/** Enables a disabled account; the inactive days count again from now. Answers whether it was disabled. */
export async function enableAccount(db: Db, userId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ disabled_at: null, disabled_reason: null, enabled_at: now, updated: now })
    .where('id', '=', userId)
    .where('disabled_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** When an account was last active: its last sign-in, its creation, or its last enabling, the latest. */
const activity = sql<number>`greatest(users.created, coalesce(users.last_sign_in, 0), coalesce(users.enabled_at, 0))`;

export type StaleAccount = { id: string; email: string; support: boolean; lastActive: number };

/** Enabled accounts not active since `before`, oldest activity first, at most `limit`. */
export async function staleAccounts(db: Db, before: number, limit: number): Promise<StaleAccount[]> {
  const rows = await db
    .selectFrom('users')
    .select([
      'users.id',
      'users.email',
      activity.as('last_active'),
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('user_roles')
              .select('user_roles.user_id')
              .whereRef('user_roles.user_id', '=', 'users.id')
              .where('user_roles.name', '=', 'Support'),
          )
          .as('support'),
    ])
    .where('users.disabled_at', 'is', null)
    .where(activity, '<', before)
    .orderBy(activity)
    .orderBy('users.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    support: Boolean(r.support),
    lastActive: Number(r.last_active),
  }));
}

/** How many enabled accounts hold the Support role, leaving out `except`. */
export async function enabledSupportCount(db: Db, except: readonly string[]): Promise<number> {
  let query = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('users.disabled_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.user_id')
          .whereRef('user_roles.user_id', '=', 'users.id')
          .where('user_roles.name', '=', 'Support'),
      ),
    );
  if (except.length > 0) query = query.where('users.id', 'not in', [...except]);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Disables these accounts (still enabled and still stale when the statement runs); answers which. */
export async function disableAccounts(db: Db, ids: readonly string[], before: number, now: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('users')
    .set({ disabled_at: now, disabled_reason: 'inactive' })
    .where('id', 'in', [...ids])
    .where('disabled_at', 'is', null)
    .where(activity, '<', before)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The inactive days of the global settings; 90 until support saves them. */
export async function inactiveAccountDays(db: Db): Promise<number> {
  const row = await db.selectFrom('global_settings').select('inactive_account_days').executeTakeFirst();
  return row?.inactive_account_days ?? 90;
}
