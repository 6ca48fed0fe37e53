import { AppError, jobsPageSize } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { Out, Service } from '../../context/method.ts';
import { pageBeforeId } from '../../lists/paging.ts';
import { countQueues, jobExists, listJobInfos, retryDead } from './repository.ts';

export async function listQueues(deps: AppDeps): Out<'jobs/listQueues'> {
  return { queues: await countQueues(deps.db) };
}

export const listJobs: Service<'jobs/listJobs', unknown> = async (deps, _actor, input) => {
  const page = await pageBeforeId(input.nextToken, jobsPageSize, (at) =>
    listJobInfos(deps.db, {
      ...(input.type ? { type: input.type } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...at,
    }),
  );
  return { jobs: page.items, nextToken: page.nextToken };
};

export const retryJob: Service<'jobs/retryJob', unknown> = async (deps, _actor, input) => {
  const retried = await retryDead(deps.db, input.id, deps.now());
  if (retried) {
    deps.logger.info('dead job retried', { jobId: retried.id, type: retried.type });
    return retried;
  }
  if (!(await jobExists(deps.db, input.id))) throw new AppError('NOT_FOUND', `Job ${input.id} not found`);
  throw new AppError('CONFLICT', 'Only a dead job can be retried');
};
