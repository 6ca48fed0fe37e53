import { AppError, isoMonth, londonMonthOf, monthlyReportHistoryMonths } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { enqueueJob } from '../../jobs/repository.ts';
import { type JobContext, PermanentJobError } from '../../jobs/runner.ts';
import { monthlyReportEmail } from './monthly-email-content.ts';
import {
  claimSendLog,
  clearHandOver,
  findReportBusiness,
  markHandedOver,
  markSent,
  markUnconfirmed,
  reportBusinessIds,
} from './monthly-email-repository.ts';
import { hasPendingChanges, recomputeMonth } from './monthly-job-repository.ts';
import { fromMonthIndex, monthIndex, monthlyRows } from './monthly-repository.ts';

/*
 * The monthly report email (docs/decisions/reports.md "The monthly report email"). Staff send it with
 * reports/sendMonthlyEmail (always allowed: a resend; audited); the `reports.monthlyEmails` schedule
 * queues one `reports.monthlyEmail` job per active business with notification emails on the 1st of each
 * London month, and each job sends that business's report for the month just ended exactly once,
 * guarded by its row in monthly_report_sends.
 */

/** The scheduled jobs' names. */
export const MONTHLY_EMAILS_JOB = 'reports.monthlyEmails' as const;
export const MONTHLY_EMAIL_JOB = 'reports.monthlyEmail' as const;

/**
 * A hand-over mark younger than this may be another worker's SMTP conversation still under way (the
 * transport's own timeouts end one well before): a retry waits rather than sending a second copy.
 */
export const HAND_OVER_IN_FLIGHT_MS = 10 * 60_000;

/** Businesses read per page while queueing the month's emails. */
const QUEUE_PAGE = 500;

type Month = { year: number; month: number };

/** The London month before the one `now` is in. */
export function lastLondonMonth(now: number): Month {
  const current = londonMonthOf(now);
  return fromMonthIndex(monthIndex(current.year, current.month) - 1);
}

/**
 * The email of one business and month, ready to send but for its recipients.
 *
 * Fresh figures: the rows are written by the `stats.monthly` job (areas/reports/monthly-job-repository.ts)
 * every 5 minutes. When that job still has changes to fold into the reported month (it fell behind, or
 * a manual send mid-month), the month is recomputed here first, so the email never sends stale figures.
 * The months before it are history the job has long finished.
 */
async function composeReport(deps: AppDeps, business: { id: string; name: string }, { year, month }: Month) {
  const index = monthIndex(year, month);
  if (await hasPendingChanges(deps.db, business.id, index)) {
    try {
      await recomputeMonth(deps.db, business.id, index, deps.now());
    } catch (error) {
      // The figures as stored rather than no report (the stats job logs and retries the same month).
      deps.logger.error('monthly report: the month could not be recomputed; sending the stored figures', {
        businessId: business.id,
        month: isoMonth(year, month),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const rows = await monthlyRows(deps.db, [business.id], index - monthlyReportHistoryMonths, index);
  return monthlyReportEmail(deps.config.productName, business.name, rows);
}

/** The Message-ID of a (business, month)'s scheduled report: the same for every copy, so mail clients that collapse duplicates do. */
function reportMessageId(deps: AppDeps, businessId: string, { year, month }: Month): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(deps.config.mailFrom)?.[1] ?? 'medlocker.invalid';
  return `<monthly-report.${businessId}.${isoMonth(year, month)}@${domain}>`;
}

/** `reports/sendMonthlyEmail`: staff send (or send again) a month's report to the business's notification emails. */
export const sendMonthlyEmail: Service<'reports/sendMonthlyEmail'> = async (deps, actor, input) => {
  if ((input.year === undefined) !== (input.month === undefined)) {
    const missing = input.year === undefined ? 'year' : 'month';
    throw new AppError('VALIDATION', 'Give both the year and the month, or neither for last month', [
      { path: missing, id: 'REQUIRED', message: 'Field is required' },
    ]);
  }
  const now = deps.now();
  const wanted: Month =
    input.year !== undefined && input.month !== undefined
      ? { year: input.year, month: input.month }
      : lastLondonMonth(now);
  const current = londonMonthOf(now);
  if (monthIndex(wanted.year, wanted.month) > monthIndex(current.year, current.month)) {
    throw new AppError('VALIDATION', `${isoMonth(wanted.year, wanted.month)} has not started yet`, [
      { path: 'month', id: 'INVALID_MONTH', message: 'Choose this month or an earlier one' },
    ]);
  }
  const business = await findReportBusiness(deps.db, input.businessId);
  if (!business) throw new AppError('NOT_FOUND', `Business ${input.businessId} not found`);
  if (business.recipients.length === 0) {
    throw new AppError(
      'CONFLICT',
      'This business has no notification emails: add one to its details before sending the monthly report',
      [{ path: 'businessId', id: 'NO_NOTIFICATION_EMAILS', message: 'No notification emails' }],
    );
  }
  const email = await composeReport(deps, business, wanted);
  try {
    await deps.mailer.send({ ...email, to: business.recipients.join(', ') });
  } catch (error) {
    deps.logger.warn('monthly report email refused by the mail server', {
      businessId: business.id,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new AppError('UNAVAILABLE', 'The mail server did not accept the monthly report: please try again later');
  }
  await audit(deps.db, deps, actor, {
    action: 'report.monthlyEmail.sent',
    entityType: 'business',
    entityId: business.id,
    businessId: business.id,
    details: { year: wanted.year, month: wanted.month, recipients: business.recipients, via: 'manual' },
  });
  return { ...wanted, sentTo: business.recipients };
};

/**
 * The schedule's job (`reports.monthlyEmails`, the 1st of each month): one `reports.monthlyEmail` job
 * per active business with notification emails, for the London month just ended. The dedupe key keeps
 * a second run from queueing a business twice while its job waits; the sent log keeps it from sending
 * twice after. How many were queued.
 */
export async function queueMonthlyEmails(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const month = lastLondonMonth(now);
  let queued = 0;
  let after: string | null = null;
  for (;;) {
    const ids = await reportBusinessIds(deps.db, after, QUEUE_PAGE);
    for (const businessId of ids) {
      const id = await enqueueJob(
        deps.db,
        {
          type: MONTHLY_EMAIL_JOB,
          businessId,
          payload: { businessId, ...month },
          dedupeKey: `${MONTHLY_EMAIL_JOB}:${businessId}:${isoMonth(month.year, month.month)}`,
          // Retries wait out a hand-over still in flight (HAND_OVER_IN_FLIGHT_MS): 10 attempts back off past an hour.
          maxAttempts: 10,
          runAfter: now,
        },
        now,
      );
      if (id) queued += 1;
    }
    if (ids.length < QUEUE_PAGE) return queued;
    after = ids[ids.length - 1] ?? null;
  }
}

export type ScheduledOutcome = 'sent' | 'already-sent' | 'skipped' | 'unconfirmed';

/** A permanent SMTP refusal (5xx: no such mailbox, policy): retrying cannot mend it. */
const isPermanentSmtp = (error: unknown) => {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * One business's scheduled report (`reports.monthlyEmail`), exactly once per business and month:
 * 1. claim the sent-log row (insert, then lock): sent or unconfirmed already → nothing;
 * 2. a hand-over mark left by an earlier attempt means it died during or just after the SMTP
 *    conversation: the mail most likely went. It is sent once more (same Message-ID) unless that was
 *    already done; a second such crash leaves it unconfirmed, never a third copy. A mark younger than
 *    {@link HAND_OVER_IN_FLIGHT_MS} may be a live attempt: wait (retry later);
 * 3. commit the hand-over mark, send, then record sent in the job's own completing transaction. A
 *    refusal clears the mark (the server did not take it), so the retry sends without doubt.
 */
export async function sendScheduledMonthlyEmail(
  deps: AppDeps,
  context: Pick<JobContext, 'complete'>,
  payload: { businessId: string; year: number; month: number },
): Promise<ScheduledOutcome> {
  const key = payload;
  const business = await findReportBusiness(deps.db, payload.businessId);
  // Archived, gone or without recipients since the job was queued: nothing to send, nothing claimed.
  if (!business || business.archived || business.recipients.length === 0) return 'skipped';
  const email = await composeReport(deps, business, payload);
  const messageId = reportMessageId(deps, business.id, payload);
  const decision = await deps.db.transaction().execute(async (tx) => {
    const now = deps.now();
    const log = await claimSendLog(tx, key, messageId, now);
    if (log.status !== 'sending') return { go: false as const, outcome: 'already-sent' as const };
    let crashResends = log.crashResends;
    if (log.handedOverAt !== null) {
      if (now - log.handedOverAt < HAND_OVER_IN_FLIGHT_MS) {
        throw new Error('Another attempt is handing this report to the mail server: trying again later');
      }
      if (crashResends >= 1) {
        await markUnconfirmed(tx, key, now);
        return { go: false as const, outcome: 'unconfirmed' as const };
      }
      crashResends += 1;
    }
    await markHandedOver(tx, key, now, crashResends);
    return { go: true as const, markedAt: now, messageId: log.messageId, resend: crashResends > log.crashResends };
  });
  if (!decision.go) {
    if (decision.outcome === 'unconfirmed') {
      deps.logger.error('monthly report: a crash during the hand-over twice; not sent a third time', {
        businessId: business.id,
        month: isoMonth(payload.year, payload.month),
      });
    }
    return decision.outcome;
  }
  if (decision.resend) {
    deps.logger.warn('monthly report: sent again after a crash during the hand-over (same Message-ID)', {
      businessId: business.id,
      month: isoMonth(payload.year, payload.month),
    });
  }
  try {
    await deps.mailer.send({ ...email, to: business.recipients.join(', '), messageId: decision.messageId });
  } catch (error) {
    await clearHandOver(deps.db, key, decision.markedAt, deps.now());
    if (isPermanentSmtp(error)) throw new PermanentJobError(error instanceof Error ? error.message : String(error));
    throw error;
  }
  await deps.db.transaction().execute(async (tx) => {
    await markSent(tx, key, business.recipients, deps.now());
    await context.complete(tx);
  });
  return 'sent';
}
