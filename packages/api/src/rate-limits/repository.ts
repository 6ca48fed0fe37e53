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
