import type { Database } from '@medlocker/db';
import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { JobPayloads } from './catalogue.ts';
import { enqueueJob, type NewJob } from './repository.ts';
import { insertMissingSchedules, lockSchedules, updateSchedule } from './schedule-repository.ts';

/** Schedules are read in UK time: "07:00" is 07:00 in London, GMT in winter and BST in summer. */
export const SCHEDULE_TIME_ZONE = 'Europe/London';

/**
 * A job queued on a cron pattern (five fields, minute first; six with seconds first), e.g.
 * `0 7 * * *` every day at 07:00 London, `0 6 1 * *` the 1st of each month at 06:00 London.
 */
export type Schedule<Payloads = JobPayloads> = {
  name: string;
  pattern: string;
  job: Omit<NewJob<Payloads>, 'runAfter' | 'dedupeKey'>;
};

/**
 * The first time after `after` (ms) that the pattern names, in London time. croner walks local wall
 * time in the zone as Vixie cron does: a fixed time the spring change skips (01:30 on the last Sunday of
 * March) runs once, at the end of the gap (02:00 BST); one the autumn change repeats runs once (the first, BST).
 */
export function nextRunAt(pattern: string, after: number): number {
  const known = lastAnswers.get(pattern);
  // No time the pattern names lies between the last question and its answer: any question in between
  // has the same answer. Every runner asks about each schedule once a second (housekeeping).
  if (known && known.after <= after && after < known.next) return known.next;
  const cron = known?.cron ?? new Cron(pattern, { timezone: SCHEDULE_TIME_ZONE, paused: true });
  const next = cron.nextRun(new Date(after))?.getTime();
  if (next === undefined) throw new Error(`The schedule pattern "${pattern}" never runs`);
  lastAnswers.set(pattern, { cron, after, next });
  return next;
}

/** Each pattern's parsed form and the last time asked about with its answer (patterns are few, in code). */
const lastAnswers = new Map<string, { cron: Cron; after: number; next: number }>();

/** Throws on a pattern croner does not read, so a bad schedule stops the runner from starting. */
export function checkPattern(pattern: string): void {
  nextRunAt(pattern, Date.now());
}

/**
 * Queues the run of every schedule that is due. Each schedule is a row with its next due time, locked
 * with SKIP LOCKED while this process queues the run and moves the time on, in one transaction: with
 * several processes, one queues it and the others skip it (and then see the new time). A run missed
 * while no process ran is queued once, not once per missed time. The job's dedupe key names the due
 * time too, as a second guard. Answers the names it queued, and when the next schedule is due as this
 * look saw them (`now` when a row another process held was skipped: look again soon).
 */
export async function queueDueSchedules<Payloads>(
  db: Kysely<Database>,
  schedules: Schedule<Payloads>[],
  now: number,
): Promise<{ queued: string[]; nextDue: number }> {
  if (schedules.length === 0) return { queued: [], nextDue: Number.POSITIVE_INFINITY };
  await insertMissingSchedules(
    db,
    schedules.map((s) => ({ name: s.name, pattern: s.pattern, next_run_at: nextRunAt(s.pattern, now), updated: now })),
  );
  const byName = new Map(schedules.map((s) => [s.name, s]));
  return db.transaction().execute(async (tx) => {
    const rows = await lockSchedules(tx, [...byName.keys()]);
    const queued: string[] = [];
    let nextDue = rows.length < byName.size ? now : Number.POSITIVE_INFINITY;
    for (const row of rows) {
      const schedule = byName.get(row.name);
      if (!schedule) continue;
      const next = nextRunAt(schedule.pattern, now);
      // The pattern changed in code: the next run follows this code's pattern, nothing runs for the
      // other. Its time is counted from the row's last change, so a run of this pattern that fell due
      // since (code with the other pattern wrote the row meanwhile: a rolling deploy, a rollback) is
      // queued now rather than lost.
      const changed = row.pattern !== schedule.pattern;
      const due = changed ? nextRunAt(schedule.pattern, row.updated) : row.nextRunAt;
      if (due > now) {
        if (changed) await updateSchedule(tx, row.name, { pattern: schedule.pattern, next_run_at: next, updated: now });
        nextDue = Math.min(nextDue, changed ? next : due);
        continue;
      }
      const job = { ...schedule.job, runAfter: due, dedupeKey: `schedule:${row.name}:${due}` } as NewJob<Payloads>;
      await enqueueJob<Payloads>(tx, job, now);
      await updateSchedule(tx, row.name, {
        pattern: schedule.pattern,
        next_run_at: next,
        last_run_at: due,
        updated: now,
      });
      nextDue = Math.min(nextDue, next);
      queued.push(row.name);
    }
    return { queued, nextDue };
  });
}
