import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** `capacity` calls at once, refilled continuously at `capacity` per `perMs`. */
export type Bucket = { capacity: number; perMs: number };

/** The bucket's tokens at `now`: what was left plus the refill since, at most the capacity. */
const refilled = (bucket: Bucket, now: number) =>
  sql<number>`least(${bucket.capacity}::double precision, rate_buckets.tokens + greatest(0, ${now}::bigint - rate_buckets.refilled_at) * ${bucket.capacity / bucket.perMs}::double precision)`;

/**
 * Takes one token from the bucket `key` before the work it guards, in one statement (concurrent calls,
 * in any api process, cannot all take the last token). Returns null when taken, or the seconds until a
 * token is back when the bucket is empty (then nothing is taken).
 */
export async function reserveToken(db: Db, key: string, bucket: Bucket, now: number): Promise<number | null> {
  const taken = await db
    .insertInto('rate_buckets')
    .values({ key, tokens: bucket.capacity - 1, refilled_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          tokens: sql`${refilled(bucket, now)} - 1`,
          refilled_at: sql`greatest(rate_buckets.refilled_at, ${now}::bigint)`,
        })
        .where(refilled(bucket, now), '>=', 1),
    )
    .returning('tokens')
    .executeTakeFirst();
  if (taken) return null;
  const row = await db
    .selectFrom('rate_buckets')
    .select(refilled(bucket, now).as('tokens'))
    .where('key', '=', key)
    .executeTakeFirst();
  const tokens = Number(row?.tokens ?? 0);
  return Math.max(1, Math.ceil(((1 - tokens) * bucket.perMs) / bucket.capacity / 1000));
}

/** Gives back a token taken by {@link reserveToken} when the work it was reserved for never started. */
export async function releaseToken(db: Db, key: string, bucket: Bucket): Promise<void> {
  await db
    .updateTable('rate_buckets')
    .set({ tokens: sql`least(${bucket.capacity}::double precision, tokens + 1)` })
    .where('key', '=', key)
    .execute();
}

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
  const buckets = await sql`
    delete from rate_buckets where key in (
      select key from rate_buckets where refilled_at < ${before} limit ${limit})`.execute(db);
  const logins = await sql`
    delete from login_address_failures where address_key in (
      select address_key from login_address_failures where refilled_at < ${before} limit ${limit})`.execute(db);
  return Number(buckets.numAffectedRows ?? 0) + Number(logins.numAffectedRows ?? 0);
}
