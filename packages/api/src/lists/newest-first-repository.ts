import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * A page of a list newest first by id (ids are UUIDv7, so id order is creation order), strictly
 * before the cursor's id when there is one: `limit + 1` rows, so `pageOf` can tell whether another
 * page follows. The query selects from one table with an `id` column.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  q: { before?: string; limit: number },
): Promise<O[]> {
  const id = sql.ref<string>('id');
  const after = q.before ? query.where(id, '<', q.before) : query;
  return after
    .orderBy(id, 'desc')
    .limit(q.limit + 1)
    .execute();
}
