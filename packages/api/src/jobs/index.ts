/** The job runner: background work for every area (docs/decisions/jobs.md "Job runner"). */

export type { JobPayloads, JobType, NoPayload } from './catalogue.ts';
export { enqueueJob, type JobRow, type NewJob } from './repository.ts';
export {
  createRunner,
  type JobContext,
  type JobHandler,
  type JobHandlers,
  PermanentJobError,
  type Runner,
} from './runner.ts';
export { nextRunAt, SCHEDULE_TIME_ZONE, type Schedule } from './schedule.ts';
