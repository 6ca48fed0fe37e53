import type { Database } from '@medlocker/db';
import { type Kysely, sql } from 'kysely';
import { enqueueJob } from '../../jobs/repository.ts';
import type { Db } from './repository.ts';

/**
 * The trigram index of patients' search text for the rows an import wrote (search_pending, migration
 * 0053), built by the job runner after the import instead of row by row inside its statements. The
 * list's search scans pending rows beside the index (repository.ts, listPatients), so it is exact
 * before the job runs; the job only makes it fast again. docs/decisions/database.md, list search.
 */
export const SEARCH_INDEX_JOB = 'patients.searchIndex';

/**
 * How long no import batch has written a pending row before the job indexes them: an import sends a
 * batch every few hundred ms, so the job waits for its end instead of competing with it for the CPU.
 */
export const SEARCH_QUIET_MS = 10_000;

/** Rows indexed per statement: short row locks, and a request (or an edit of a pending patient) waits at most one chunk. */
const CHUNK = 500;

/**
 * Queues the job after an import batch wrote rows at `now`: one job per quiet period, due a full quiet
 * period after that period ends, so every pending row has a job due at least SEARCH_QUIET_MS after it
 * was written, and a long import queues one job per period rather than one per batch.
 */
export async function queueSearchIndex(db: Db, now: number): Promise<void> {
  const period = Math.floor(now / SEARCH_QUIET_MS);
  await enqueueJob(
    db,
    {
      type: SEARCH_INDEX_JOB,
      payload: {},
      dedupeKey: `${SEARCH_INDEX_JOB}:${period}`,
      runAfter: (period + 2) * SEARCH_QUIET_MS,
    },
    now,
  );
}

/**
 * Indexes every pending row, CHUNK at a time, unless an import wrote one within SEARCH_QUIET_MS (its
 * own job comes later). Rows another transaction holds are skipped, not waited for: the one holding
 * them wrote them, and its job indexes them. Returns the rows indexed.
 */
export async function indexPendingSearch(db: Kysely<Database>, now: number, signal?: AbortSignal): Promise<number> {
  const newest = await db
    .selectFrom('patients')
    .select((eb) => eb.fn.max('updated').as('at'))
    .where(sql<boolean>`search_pending`)
    .executeTakeFirst();
  if (newest?.at == null || Number(newest.at) > now - SEARCH_QUIET_MS) return 0;
  let indexed = 0;
  while (!signal?.aborted) {
    const { numAffectedRows } = await sql`
      update patients set search_pending = false
      where id in (select id from patients where search_pending limit ${CHUNK} for update skip locked)`.execute(db);
    const n = Number(numAffectedRows ?? 0);
    indexed += n;
    if (n < CHUNK) break;
    // On PGlite the server and its database share one thread: requests waiting for it go between chunks.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (indexed >= SETTLE_AFTER_ROWS) await settleSearchIndex(db);
  return indexed;
}

/** From how many rows indexed at once the index and the planner's statistics are brought up to date. */
const SETTLE_AFTER_ROWS = 1_000;

/**
 * After a large batch left the pending state the table is vacuumed and analysed. Vacuum merges the GIN
 * index's own pending list into the index (a search otherwise reads it row by row) and removes the rows'
 * old versions from `patients_search_pending_idx`, whose every leaf page the pending half of each search
 * read until then (1,300 pages, 10–25 ms a search at 100,000 rows indexed); analyse, because until the
 * statistics are taken again the planner believes the business's rows pending and scans them (20–40 ms a
 * search after the job, 1–6 ms after). Autovacuum would get there in minutes on PostgreSQL; PGlite has
 * none. When the old versions are under about 2% of the table's pages PostgreSQL may skip the index pass
 * (`index_cleanup auto`): the entries left are then that few. Measured in docs/PERFORMANCE.md. Vacuum
 * cannot run inside a transaction, hence the pool (`Kysely`, not a transaction) all the way here.
 */
async function settleSearchIndex(db: Kysely<Database>): Promise<void> {
  await sql`vacuum (analyze) patients`.execute(db);
}
