import {
  AppError,
  type Contract,
  type JobInfo,
  jobsPageSize,
  type OutputOf,
  type ParsedInputOf,
} from '@medlocker/core';
import type { AppDeps } from '../../deps.ts';
import { countQueues, findJob, type JobRow, listJobRows, retryDeadJob } from '../../jobs/repository.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';

type Jobs = Contract['jobs'];

/** The stored status as support reads it: a waiting job that has been tried is "failed". */
export function toJobInfo(row: JobRow): JobInfo {
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

export async function listQueues(deps: AppDeps): Promise<OutputOf<Jobs['listQueues']>> {
  return { queues: await countQueues(deps.db) };
}

export async function listJobs(
  deps: AppDeps,
  _actor: unknown,
  input: ParsedInputOf<Jobs['listJobs']>,
): Promise<OutputOf<Jobs['listJobs']>> {
  const before = decodeIdCursor(input.nextToken);
  const rows = await listJobRows(deps.db, {
    ...(input.type ? { type: input.type } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(before ? { before } : {}),
    limit: jobsPageSize,
  });
  const page = pageOf(rows, jobsPageSize, (r) => [r.id]);
  return { jobs: page.items.map(toJobInfo), nextToken: page.nextToken };
}

export async function retryJob(
  deps: AppDeps,
  _actor: unknown,
  input: ParsedInputOf<Jobs['retryJob']>,
): Promise<OutputOf<Jobs['retryJob']>> {
  const retried = await retryDeadJob(deps.db, input.id, deps.now());
  if (retried) {
    deps.logger.info('dead job retried', { jobId: retried.id, type: retried.type });
    return toJobInfo(retried);
  }
  const job = await findJob(deps.db, input.id);
  if (!job) throw new AppError('NOT_FOUND', `Job ${input.id} not found`);
  throw new AppError('CONFLICT', 'Only a dead job can be retried');
}
