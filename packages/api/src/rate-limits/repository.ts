import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** `capacity` calls at once, refilled continuously at `capacity` per `perMs`. */
export type Bucket = { capacity: number; perMs: number };

/**
 * The tables that hold token buckets, each by the column that keys it: `rate_buckets` for every limit
 * but one, `login_address_failures` for failed sign-ins per client address (its own table, older).
 */
const keyColumn = { rate_buckets: 'key', login_address_failures: 'address_key' } as const;
export type BucketTable = keyof typeof keyColumn;

/** The bucket's tokens at `now`: what was left plus the refill since, at most the capacity. */
const refilled = (table: BucketTable, bucket: Bucket, now: number) =>
  sql<number>`least(${bucket.capacity}::double precision, ${sql.ref(`${table}.tokens`)} + greatest(0, ${now}::bigint - ${sql.ref(`${table}.refilled_at`)}) * ${bucket.capacity / bucket.perMs}::double precision)`;

/**
 * Takes one token from the bucket `key` of `table` before the work it guards, in one statement (concurrent
 * calls, in any api process, cannot all take the last token). Returns null when taken, or the seconds
 * until a token is back when the bucket is empty (then nothing is taken).
 */
export async function takeBucketToken(
  db: Db,
  table: BucketTable,
  key: string,
  bucket: Bucket,
  now: number,
): Promise<number | null> {
  const column = sql.ref(keyColumn[table]);
  const left = refilled(table, bucket, now);
  const taken = await sql<{ tokens: number }>`
    insert into ${sql.table(table)} (${column}, tokens, refilled_at) values (${key}, ${bucket.capacity - 1}, ${now})
    on conflict (${column}) do update
      set tokens = ${left} - 1, refilled_at = greatest(${sql.ref(`${table}.refilled_at`)}, ${now}::bigint)
      where ${left} >= 1
    returning tokens`.execute(db);
  if (taken.rows.length > 0) return null;
  const row = await sql<{ tokens: number }>`select ${left} as tokens from ${sql.table(table)} where ${column} = ${key}`
    .execute(db)
    .then((r) => r.rows[0]);
  const tokens = Number(row?.tokens ?? 0);
  return Math.max(1, Math.ceil(((1 - tokens) * bucket.perMs) / bucket.capacity / 1000));
}

/** Gives back a token taken by {@link takeBucketToken} when the work it was reserved for never started. */
export async function returnBucketToken(db: Db, table: BucketTable, key: string, bucket: Bucket): Promise<void> {
  await sql`update ${sql.table(table)} set tokens = least(${bucket.capacity}::double precision, tokens + 1)
    where ${sql.ref(keyColumn[table])} = ${key}`.execute(db);
}

/** Takes a token from the bucket `key` of `rate_buckets`: {@link takeBucketToken}. */
export const reserveToken = (db: Db, key: string, bucket: Bucket, now: number): Promise<number | null> =>
  takeBucketToken(db, 'rate_buckets', key, bucket, now);

/** Gives back a token taken by {@link reserveToken} when the work it was reserved for never started. */
export const releaseToken = (db: Db, key: string, bucket: Bucket): Promise<void> =>
  returnBucketToken(db, 'rate_buckets', key, bucket);

/**
 * Every bucket refills to full within its `perMs` (at most an hour today): a row untouched for a day
 * is full, the same as no row. Kept that long, then deleted, so the tables hold only recent addresses.
 */
export const BUCKET_KEEP_MS = 24 * 60 * 60_000;

/**
 * Deletes the rate buckets and failed-login buckets last touched before `before`, up to `limit` of
 * each. Answers how many went.
 */
export async function deleteIdleBuckets(db: Db, before: number, limit = 5_000): Promise<number> {
  let deleted = 0;
  for (const [table, key] of Object.entries(keyColumn)) {
    const result = await sql`
      delete from ${sql.table(table)} where ${sql.ref(key)} in (
        select ${sql.ref(key)} from ${sql.table(table)} where refilled_at < ${before} limit ${limit})`.execute(db);
    deleted += Number(result.numAffectedRows ?? 0);
  }
  return deleted;
}
