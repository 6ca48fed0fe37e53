import { expect, it } from 'bun:test';
import { describeDb } from '@medlocker/db/testing';
import { Cron } from 'croner';
import type { AnyJobs } from './catalogue.ts';
import { nextRunAt, queueDueSchedules, type Schedule } from './schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

it('reads "every day at 07:00" in London time across both clock changes', () => {
  const daily = '0 7 * * *';
  // The clocks go forward on Sunday 29 March 2026 at 01:00 GMT and back on Sunday 25 October at 02:00 BST.
  expect(iso(nextRunAt(daily, at('2026-03-28T07:00:00Z')))).toBe('2026-03-29T06:00:00.000Z');
  expect(iso(nextRunAt(daily, at('2026-03-29T06:00:00Z')))).toBe('2026-03-30T06:00:00.000Z');
  expect(iso(nextRunAt(daily, at('2026-10-24T06:00:00Z')))).toBe('2026-10-25T07:00:00.000Z');
  expect(iso(nextRunAt(daily, at('2026-10-25T07:00:00Z')))).toBe('2026-10-26T07:00:00.000Z');
});

it('reads "the 1st of the month at 06:00" in London time, summer and winter', () => {
  const monthly = '0 6 1 * *';
  expect(iso(nextRunAt(monthly, at('2026-03-15T12:00:00Z')))).toBe('2026-04-01T05:00:00.000Z');
  expect(iso(nextRunAt(monthly, at('2026-10-15T12:00:00Z')))).toBe('2026-11-01T06:00:00.000Z');
  expect(iso(nextRunAt(monthly, at('2026-12-15T12:00:00Z')))).toBe('2027-01-01T06:00:00.000Z');
});

it('runs a time the spring change skips once, when the clocks have gone forward (02:00 BST), and a repeated time once', () => {
  expect(iso(nextRunAt('30 1 * * *', at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:00:00.000Z');
  const autumn = nextRunAt('30 1 * * *', at('2026-10-24T12:00:00Z'));
  expect(iso(autumn)).toBe('2026-10-25T00:30:00.000Z');
  expect(iso(nextRunAt('30 1 * * *', autumn))).toBe('2026-10-26T01:30:00.000Z');
});

it('answers a question asked again between the last one and its answer as a fresh reading would', () => {
  // Asked every half hour across the autumn change, in order, then out of order: the same times as
  // a pattern read anew for each question.
  const pattern = '30 1 * * *';
  const fresh = (after: number) =>
    new Cron(pattern, { timezone: 'Europe/London', paused: true }).nextRun(new Date(after))?.getTime();
  const start = at('2026-10-24T00:00:00Z');
  const times = Array.from({ length: 120 }, (_, i) => start + i * 1_800_000);
  for (const after of [...times, ...times.toReversed()]) expect(nextRunAt(pattern, after)).toBe(fresh(after) as number);
});

describeDb('schedules', (t) => {
  const daily: Schedule<AnyJobs> = { name: 'digest', pattern: '0 7 * * *', job: { type: 'digest', payload: {} } };
  const queued = () => t.db.selectFrom('jobs').selectAll().execute();

  it('queues a due schedule once, even when several processes look at the same moment', async () => {
    const start = at('2026-11-02T06:00:00Z');
    expect(await queueDueSchedules(t.db, [daily], start)).toEqual({ queued: [], nextDue: at('2026-11-02T07:00:00Z') });
    const due = at('2026-11-02T07:00:00Z');
    const results = await Promise.all([1, 2, 3, 4].map(() => queueDueSchedules(t.db, [daily], due + 5)));
    expect(results.flatMap((r) => r.queued)).toEqual(['digest']);
    const rows = await queued();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'digest', run_after: due, dedupe_key: `schedule:digest:${due}` });
    // Nothing more until the next day; a run missed while nothing ran is queued once.
    expect((await queueDueSchedules(t.db, [daily], due + 3_600_000)).queued).toEqual([]);
    expect(await queueDueSchedules(t.db, [daily], at('2026-11-05T09:00:00Z'))).toEqual({
      queued: ['digest'],
      nextDue: at('2026-11-06T07:00:00Z'),
    });
    expect(await queued()).toHaveLength(2);
  });

  it('runs its own pattern when code with another one rewrote the row meanwhile (a rolling deploy)', async () => {
    await queueDueSchedules(t.db, [daily], at('2026-11-02T06:00:00Z'));
    const other: Schedule<AnyJobs> = { ...daily, pattern: '0 9 * * *' };
    await queueDueSchedules(t.db, [other], at('2026-11-02T06:30:00Z'));
    const due = at('2026-11-02T07:00:00Z');
    expect((await queueDueSchedules(t.db, [daily], due)).queued).toEqual(['digest']);
    expect(await queued()).toMatchObject([{ run_after: due, dedupe_key: `schedule:digest:${due}` }]);
    const row = await t.db.selectFrom('job_schedules').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ pattern: '0 7 * * *', next_run_at: at('2026-11-03T07:00:00Z'), last_run_at: due });
  });

  it('follows a pattern changed in code from the next run on', async () => {
    await queueDueSchedules(t.db, [daily], at('2026-11-02T06:00:00Z'));
    const changed: Schedule<AnyJobs> = { ...daily, pattern: '0 9 * * *' };
    expect(await queueDueSchedules(t.db, [changed], at('2026-11-02T07:30:00Z'))).toEqual({
      queued: [],
      nextDue: at('2026-11-02T09:00:00Z'),
    });
    const row = await t.db.selectFrom('job_schedules').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ pattern: '0 9 * * *', next_run_at: at('2026-11-02T09:00:00Z') });
  });
});
