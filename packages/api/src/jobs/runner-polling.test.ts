import { expect, it } from 'bun:test';
import { describeDb } from '@medlocker/db/testing';
import { silentLogger } from '../log/logger.ts';
import type { AnyJobs } from './catalogue.ts';
import { enqueueJob } from './repository.ts';
import { createRunner, DEFAULT_LEASE_MS, type JobHandler } from './runner.ts';

// What a runner asks the database while it waits: with several api processes on one PostgreSQL, each
// one's looks add up.
describeDb('the job runner while it waits', (t) => {
  it('claims every type in one statement, each job leased for its own handler’s time', async () => {
    const clock = Date.UTC(2026, 10, 2, 9, 30);
    const held: (() => void)[] = [];
    const hold = () => new Promise<void>((resolve) => held.push(resolve));
    const handlers: Record<string, JobHandler> = {
      quick: { leaseMs: 10_000, run: hold },
      plain: { run: hold },
      slow: { leaseMs: 900_000, run: hold },
    };
    for (const type of ['quick', 'plain', 'slow']) await enqueueJob<AnyJobs>(t.db, { type, payload: {} }, clock);
    const runner = createRunner<AnyJobs>({ db: t.db, logger: silentLogger, now: () => clock, handlers });
    expect(await runner.tick()).toBe(3);
    const leases = await t.db.selectFrom('jobs').select(['type', 'status', 'locked_until']).orderBy('type').execute();
    expect(leases).toEqual([
      { type: 'plain', status: 'running', locked_until: clock + DEFAULT_LEASE_MS },
      { type: 'quick', status: 'running', locked_until: clock + 10_000 },
      { type: 'slow', status: 'running', locked_until: clock + 900_000 },
    ]);
    for (const release of held) release();
    await runner.idle();
  });

  it('reads the schedules once a minute between due times, not once a second', async () => {
    const start = Date.UTC(2026, 10, 2, 6, 0);
    let clock = start;
    const runner = createRunner<AnyJobs>({
      db: t.db,
      logger: silentLogger,
      now: () => clock,
      handlers: { digest: { run: async () => {} } },
      schedules: [{ name: 'digest', pattern: '0 7 * * *', job: { type: 'digest', payload: {} } }],
    });
    const stored = () => t.db.selectFrom('job_schedules').select(['name', 'next_run_at']).execute();
    await runner.tick();
    const due = Date.UTC(2026, 10, 2, 7, 0);
    expect(await stored()).toEqual([{ name: 'digest', next_run_at: due }]);
    // A row gone meanwhile is not looked for within the minute (every look was a wasted insert and a
    // locking read, once a second in every process), and is put back at the minute.
    await t.db.deleteFrom('job_schedules').execute();
    for (const later of [1_000, 30_000, 59_000]) {
      clock = start + later;
      await runner.tick();
    }
    expect(await stored()).toEqual([]);
    clock = start + 60_000;
    await runner.tick();
    expect(await stored()).toEqual([{ name: 'digest', next_run_at: due }]);
  });
});
