import { disableInactiveAccounts } from './areas/auth/index.ts';
import { applyRetention } from './areas/data-protection/index.ts';
import { ESCALATE_JOB, escalateAlarm } from './areas/machines/index.ts';
import { messagePort } from './areas/messages/index.ts';
import { queueDailyDigests, sendDailyDigestTo } from './areas/notifications/index.ts';
import { inBatches, recordExpiredOrders, sendExpiryReminders } from './areas/orders/index.ts';
import { indexPendingSearch, SEARCH_INDEX_JOB } from './areas/patients/index.ts';
import {
  MONTHLY_EMAIL_JOB,
  MONTHLY_EMAILS_JOB,
  monthError,
  queueMonthlyEmails,
  runMonthlyStats,
  sendScheduledMonthlyEmail,
} from './areas/reports/index.ts';
import type { AppDeps } from './context/deps.ts';
import { configuredGateways } from './delivery/messages/gateways/index.ts';
import { messageReconcileHandler, RECONCILE_JOB } from './delivery/messages/reconcile.ts';
import { messageSendHandler } from './delivery/messages/send.ts';
import { SWEEP_JOB, sweepDueDeliveries, webhookDispatchHandler } from './delivery/webhooks/dispatch.ts';
import { DISPATCH_JOB } from './delivery/webhooks/repository.ts';
import { pruneIntegration } from './integration-api/prune.ts';
import type { JobHandler } from './jobs/handler.ts';
import { enqueueJob } from './jobs/repository.ts';
import { createRunner, type JobHandlers, type Runner } from './jobs/runner.ts';
import type { Schedule } from './jobs/schedule.ts';
import { BUCKET_KEEP_MS, deleteIdleBuckets } from './rate-limits/repository.ts';
import { resealSecrets } from './secrets/reseal.ts';

/** A scheduled sweep: does its work and logs how much it did (when it did any, unless `always`). */
function sweep(deps: AppDeps, message: string, counted: string, work: () => Promise<number>, always = false) {
  return {
    run: async () => {
      const done = await work();
      if (done > 0 || always) deps.logger.info(message, { [counted]: done });
    },
  };
}

/** Patients an import wrote, indexed for "contains" search once it is over (areas/patients/search-index-repository.ts). */
const searchIndexHandler = (deps: AppDeps): JobHandler => ({
  run: async ({ signal }) => {
    const indexed = await indexPendingSearch(deps.db, deps.now(), signal);
    if (indexed > 0) deps.logger.info('patients indexed for search', { indexed });
  },
});

/**
 * The handler of each job type and the schedules, for the runner in the api process and in
 * `npm run worker`. Every type of jobs/catalogue.ts has one here, or this does not compile.
 */
export function jobHandlers(deps: AppDeps): JobHandlers {
  const areas = messagePort(deps);
  return {
    'message.send': messageSendHandler(deps, { gateways: configuredGateways(deps.config, deps.mailer), areas }),
    // An unconfirmed message whose grace period is over: confirmed by its report, or sent again.
    [RECONCILE_JOB]: messageReconcileHandler(deps, areas),
    // Loaded orders whose window passed: their expiry event and the patient's expired message.
    'orders.recordExpired': sweep(deps, 'order expiries recorded', 'recorded', () =>
      inBatches(() => recordExpiredOrders(deps, 500), 500),
    ),
    // Loaded orders expiring within a day: the patient's reminder, once per expiry.
    'orders.expiryReminders': sweep(deps, 'order expiry reminders queued', 'reminded', () =>
      inBatches(() => sendExpiryReminders(deps, 200), 200),
    ),
    // Idempotency keys older than 24 hours and expired bearer tokens of the integration API.
    'integration.prune': sweep(deps, 'integration keys and tokens pruned', 'pruned', () => pruneIntegration(deps)),
    // One client's due webhooks (delivery/webhooks/dispatch.ts), and the safety net that queues any forgotten.
    [DISPATCH_JOB]: webhookDispatchHandler(deps),
    [SWEEP_JOB]: sweep(deps, 'webhook dispatch queued by the sweep', 'clients', () => sweepDueDeliveries(deps)),
    // The monthly figures of the months touched since the last run (areas/reports/monthly-job-repository.ts).
    'stats.monthly': {
      run: async () => {
        const { months, changed } = await runMonthlyStats(deps.db, deps.now(), {
          // One business's bad month is logged and retried next run; the others' go ahead.
          onError: (pair, error) =>
            deps.logger.error('monthly stats: a month could not be recomputed', monthError(pair, error)),
        });
        if (months > 0) deps.logger.info('monthly stats recomputed', { months, changed });
      },
    },
    'notifications.dailyDigest': sweep(
      deps,
      'daily notification digests queued',
      'queued',
      () => queueDailyDigests(deps),
      true,
    ),
    // Rate-limit buckets nobody has touched for a day (full again, so the same as none): addresses
    // and contacts are not kept longer than their limits need them.
    'housekeeping.idleBuckets': sweep(deps, 'idle rate-limit buckets deleted', 'deleted', () =>
      inBatches(() => deleteIdleBuckets(deps.db, deps.now() - BUCKET_KEEP_MS, 5_000), 5_000),
    ),
    // Accounts not used for the global setting's days (default 90): disabled, their sessions ended.
    'accounts.disableInactive': sweep(deps, 'inactive accounts disabled', 'disabled', () =>
      disableInactiveAccounts(deps),
    ),
    // What is past its retention period (docs/decisions/retention.md): counts logged and audited.
    'retention.apply': {
      run: async () => {
        deps.logger.info('retention applied', await applyRetention(deps));
      },
    },
    'notifications.digest': {
      run: async ({ job }) => {
        await sendDailyDigestTo(deps, job.payload.userId);
      },
    },
    // The 1st of each month: one report job per active business with notification emails.
    [MONTHLY_EMAILS_JOB]: sweep(deps, 'monthly report emails queued', 'queued', () => queueMonthlyEmails(deps), true),
    // A key rotation's re-seal (docs/OPERATIONS.md): logged when it did anything or left anything behind.
    'secrets.reseal': {
      run: async () => {
        const done = await resealSecrets(deps.db, deps.config.secretsKey, (column, id, reason) =>
          deps.logger.error('a sealed secret could not be sealed again under the first key', { column, id, reason }),
        );
        if (done.resealed > 0 || done.left > 0) deps.logger.info('secrets sealed again under the first key', done);
      },
    },
    // One business's report for the month just ended, exactly once (areas/reports/monthly-email.ts).
    [MONTHLY_EMAIL_JOB]: {
      run: async ({ job, complete }) => {
        const outcome = await sendScheduledMonthlyEmail(deps, { complete }, job.payload);
        deps.logger.info('monthly report email', { businessId: job.businessId, outcome });
      },
    },
    [SEARCH_INDEX_JOB]: searchIndexHandler(deps),
    // An unacknowledged critical alarm's next escalation step (areas/machines/alarms.ts).
    [ESCALATE_JOB]: { run: async ({ job }) => void (await escalateAlarm(deps, job.payload.alarmId)) },
  };
}

/**
 * Staff get their unread notifications by email each morning (SPEC: sendUnreadNotificationsEmail).
 * Order expiries are recorded every minute (a PIN stops at its expiry; the list and the patient hear of
 * it within the minute); reminders, a day ahead, every 5 minutes.
 */
export const jobSchedules: Schedule[] = [
  { name: 'orders.recordExpired', pattern: '* * * * *', job: { type: 'orders.recordExpired', payload: {} } },
  { name: 'orders.expiryReminders', pattern: '*/5 * * * *', job: { type: 'orders.expiryReminders', payload: {} } },
  { name: SWEEP_JOB, pattern: '* * * * *', job: { type: SWEEP_JOB, payload: {} } },
  { name: 'housekeeping.idleBuckets', pattern: '47 * * * *', job: { type: 'housekeeping.idleBuckets', payload: {} } },
  { name: 'notifications.dailyDigest', pattern: '0 7 * * *', job: { type: 'notifications.dailyDigest', payload: {} } },
  // 03:23 London each night: accounts unused for the global setting's days are disabled.
  { name: 'accounts.disableInactive', pattern: '23 3 * * *', job: { type: 'accounts.disableInactive', payload: {} } },
  // 02:41 London each night: what is past its retention period, removed or anonymised in small batches.
  { name: 'retention.apply', pattern: '41 2 * * *', job: { type: 'retention.apply', payload: {} } },
  { name: 'integration.prune', pattern: '17 * * * *', job: { type: 'integration.prune', payload: {} } },
  // The safety net for imported patients whose job was never queued (a process stopped between the two).
  { name: SEARCH_INDEX_JOB, pattern: '*/10 * * * *', job: { type: SEARCH_INDEX_JOB, payload: {} } },
  { name: 'stats.monthly', pattern: '*/5 * * * *', job: { type: 'stats.monthly', payload: {} } },
  // 06:00 London on the 1st: the month just ended, hours after stats.monthly folded in its last events.
  { name: MONTHLY_EMAILS_JOB, pattern: '0 6 1 * *', job: { type: MONTHLY_EMAILS_JOB, payload: {} } },
];

/** Starts a runner with every handler and schedule: the api process's and `npm run worker`'s. */
export function runJobs(deps: AppDeps): Runner {
  const runner = createRunner({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    handlers: jobHandlers(deps),
    schedules: jobSchedules,
    concurrency: deps.config.jobsConcurrency,
  });
  runner.start();
  deps.logger.info('job runner started', { worker: runner.worker });
  // The monthly figures at once, not at the next 5-minute tick: a fresh start (the demo seed) has rows
  // for its charts within seconds. Once per start; a second process's start finds it queued already.
  enqueueJob(deps.db, { type: 'stats.monthly', payload: {}, dedupeKey: 'stats.monthly:start' }, deps.now()).catch(
    (error: unknown) => deps.logger.warn('could not queue the monthly figures at start', { error: String(error) }),
  );
  // Whatever is not yet sealed under SECRETS_KEY's first key (a key added since the last start): once per
  // start and key, the other processes finding it queued.
  const key = deps.config.secretsKey.current.id;
  enqueueJob(deps.db, { type: 'secrets.reseal', payload: {}, dedupeKey: `secrets.reseal:${key}` }, deps.now()).catch(
    (error: unknown) => deps.logger.warn('could not queue the re-seal of secrets at start', { error: String(error) }),
  );
  return runner;
}

/** Starts the runner unless `JOBS=off` (an extra api process that only serves requests). */
export function startJobRunner(deps: AppDeps, env: Record<string, string | undefined>): Runner | undefined {
  if (env.JOBS?.trim().toLowerCase() === 'off') {
    deps.logger.info('job runner off (JOBS=off)');
    return undefined;
  }
  return runJobs(deps);
}
