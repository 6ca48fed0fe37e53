import { Counter } from 'prom-client';

/** Job attempts that failed, by job type and outcome: `retry` (another attempt is due) or `dead` (none is). */
export const jobFailures = new Counter({
  name: 'medlocker_job_failures_total',
  help: 'Job attempts that failed in this process, by job type and outcome (retry: another attempt is due; dead: none is)',
  labelNames: ['type', 'outcome'] as const,
  registers: [],
});
