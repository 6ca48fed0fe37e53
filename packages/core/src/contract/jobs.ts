import { type } from 'arktype';
import { validationMessages } from '../validation/catalogue.ts';
import { stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, supportOnly } from './define.ts';
import { byId, withoutInput } from './method-builders.ts';
import { Paging } from './paging.ts';

/** Pages of jobs are 50 long; `nextToken` is an opaque keyset cursor on the job id (newest first). */
export const jobsPageSize = 50;

/**
 * A job's state as support sees it: waiting (not tried yet), failed (waiting again after a failed
 * attempt), running, dead (its last attempt failed; kept until retried), done.
 */
export const JobState = type("'waiting' | 'failed' | 'running' | 'dead' | 'done'");
export type JobState = typeof JobState.infer;

/** One background job (a message to send, a webhook, a scheduled task). */
export const JobInfo = type({
  id: 'string',
  type: 'string',
  businessId: 'string | null',
  state: JobState,
  attempts: 'number',
  maxAttempts: 'number',
  runAfter: 'number',
  lastError: 'string | null',
  created: 'number',
  updated: 'number',
});
export type JobInfo = typeof JobInfo.infer;

/** The jobs of one type not yet done, by state. */
export const JobQueue = type({
  type: 'string',
  waiting: 'number',
  failed: 'number',
  running: 'number',
  dead: 'number',
});
export type JobQueue = typeof JobQueue.infer;

export const jobs = defineArea({
  listQueues: withoutInput({
    output: type({ queues: JobQueue.array() }),
    access: supportOnly,
    summary: 'Per job type, how many jobs wait, failed and wait again, run, and are dead.',
  }),
  listJobs: {
    input: type({
      /** Only jobs of this type; every type when left out. */
      'type?': upTo(stringLimits.jobType, type('string > 0')),
      /** Only jobs in this state; every state when left out. */
      'status?': JobState.configure({ message: validationMessages.INVALID_FORMAT, validationId: 'INVALID_FORMAT' }),
      ...Paging,
    }),
    output: type({ jobs: JobInfo.array(), nextToken: 'string | null' }),
    access: supportOnly,
    summary: 'Background jobs newest first, 50 a page, of one type or state if given. Payloads are not shown.',
  },
  retryJob: byId({
    output: JobInfo,
    access: supportOnly,
    summary: 'Sets a dead job waiting again with all its attempts (409 when the job is not dead).',
  }),
});
