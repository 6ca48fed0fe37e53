import type { JobInfo } from '@medlocker/core';
import { countQueues, findJob, type JobRow, listJobRows, retryDeadJob } from '../../jobs/repository.ts';

/*
 * The job queue as support's Jobs page reads it. The queue's SQL is the job runner's (jobs/repository.ts);
 * here its rows become core's JobInfo.
 */

export { countQueues };

type Db = Parameters<typeof listJobRows>[0];

/** A job as support reads it: a waiting job that has been tried is "failed". */
function toJobInfo(row: JobRow): JobInfo {
  return {
    id: row.id,
    type: row.type,
    businessId: row.business_id,
    state: row.status === 'waiting' && row.attempts > 0 ? 'failed' : row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    lastError: row.last_error,
    created: row.created,
    updated: row.updated,
  };
}

/** A page of jobs newest first, `limit + 1` of them; `failed` is waiting after a failure. */
export async function listJobInfos(db: Db, q: Parameters<typeof listJobRows>[1]): Promise<JobInfo[]> {
  return (await listJobRows(db, q)).map(toJobInfo);
}

/** A dead job waits again with all its attempts; null when it is not dead (or not there). */
export async function retryDead(db: Db, id: string, now: number): Promise<JobInfo | null> {
  const row = await retryDeadJob(db, id, now);
  return row && toJobInfo(row);
}

export async function jobExists(db: Db, id: string): Promise<boolean> {
  return (await findJob(db, id)) !== undefined;
}
