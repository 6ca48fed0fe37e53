import type { AppDeps } from '../deps.ts';
import { createRunner, type JobHandler, type Runner } from './runner.ts';
import type { Schedule } from './schedule.ts';

/**
 * The handler of each job type and the schedules, for the runner in the api process and in
 * `npm run worker`. Areas add theirs here (message sending is the next to come: issue 18).
 */
export function jobHandlers(_deps: AppDeps): Record<string, JobHandler> {
  return {};
}

export const jobSchedules: Schedule[] = [];

/** Starts the runner unless `JOBS=off` (an extra api process that only serves requests). */
export function startJobRunner(deps: AppDeps, env: Record<string, string | undefined>): Runner | undefined {
  if (env.JOBS?.trim().toLowerCase() === 'off') {
    deps.logger.info('job runner off (JOBS=off)');
    return undefined;
  }
  const runner = createRunner({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    handlers: jobHandlers(deps),
    schedules: jobSchedules,
  });
  runner.start();
  deps.logger.info('job runner started', { worker: runner.worker });
  return runner;
}
