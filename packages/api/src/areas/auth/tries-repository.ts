import { sql } from 'kysely';

/*
 * Tries counted against a limit within a window, with a lock once the limit is reached: sign-in attempts
 * on a username (`login_failures`) and tries at an order's link (`patient_verifications`). Each try is
 * counted before it is checked, in the one upsert these columns go into, so concurrent tries are counted
 * one by one and cannot all slip under the limit.
 */

export type TryLimits = { max: number; windowMs: number; lockMs: number };

/**
 * The counter's columns for an upsert: `first` when the key has no row, `next` when it has. A count older
 * than the window starts again at 1, and so does the first try after a lock ran out (never one before
 * it); the try that reaches the limit locks the key for `lockMs`, and later tries do not push that back.
 */
export function countTry(table: 'login_failures' | 'patient_verifications', now: number, limits: TryLimits) {
  const { max, windowMs, lockMs } = limits;
  const lockedUntil = sql.ref(`${table}.locked_until`);
  const firstFailureAt = sql.ref(`${table}.first_failure_at`);
  // A locked key counts again only once its lock has run out: the count's window starts at the first
  // try, the lock at the one that reached the limit, so the window alone would end a lock early.
  const stale = sql<boolean>`(case when ${lockedUntil} is not null then ${lockedUntil} <= ${now} else (${firstFailureAt} is null or ${firstFailureAt} <= ${now - windowMs}) end)`;
  const count = sql<number>`(case when ${stale} then 1 else ${sql.ref(`${table}.failures`)} + 1 end)`;
  return {
    first: { failures: 1, first_failure_at: now, locked_until: max <= 1 ? now + lockMs : null },
    next: {
      failures: count,
      first_failure_at: sql<number>`case when ${stale} then ${now}::bigint else ${firstFailureAt} end`,
      locked_until: sql<
        number | null
      >`case when ${count} < ${max} then null when not ${stale} and ${lockedUntil} is not null then ${lockedUntil} else ${now + lockMs}::bigint end`,
    },
  };
}
