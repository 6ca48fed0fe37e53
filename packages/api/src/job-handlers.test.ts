import { expect, it } from 'bun:test';
import { jobHandlers, jobSchedules, startJobRunner } from './job-handlers.ts';
import { claimJobs, enqueueJob, findJob, releaseExpiredLeases } from './jobs/repository.ts';
import { describeApi } from './testing/api.ts';
import { eventually } from './testing/hub.ts';

describeApi('the api process job runner', (t) => {
  it('starts unless JOBS=off, and stops', async () => {
    expect(startJobRunner(t.deps, { JOBS: 'off' })).toBeUndefined();
    const runner = startJobRunner(t.deps, {});
    expect(runner?.worker).toContain(`:${process.pid}:`);
    // The monthly figures are queued at once, not left to the next 5-minute tick.
    await eventually(
      async () =>
        (await t.db.selectFrom('jobs').select('id').where('dedupe_key', '=', 'stats.monthly:start').execute())
          .length === 1,
    );
    await runner?.stop(100);
  });

  it('frees a job whose worker died as dead when that was its last attempt', async () => {
    const id = (await enqueueJob(t.db, { type: 'a', payload: {}, maxAttempts: 1 }, 1_000)) as string;
    await claimJobs(t.db, { types: ['a'], worker: 'gone', now: 1_000, leaseMs: 10, limit: 1 });
    expect(await releaseExpiredLeases(t.db, 1_005)).toBe(0);
    expect(await releaseExpiredLeases(t.db, 1_010)).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({
      status: 'dead',
      attempts: 1,
      locked_by: null,
      last_error: 'The worker running it stopped before it finished (lease ran out)',
    });
  });
});

describeApi('housekeeping', (t) => {
  it('deletes rate-limit and failed-login buckets untouched for a day, and keeps the others', async () => {
    const now = t.deps.now();
    const day = 24 * 60 * 60_000;
    await t.db
      .insertInto('rate_buckets')
      .values([
        { key: 'old', tokens: 1, refilled_at: now - day - 1 },
        { key: 'recent', tokens: 0, refilled_at: now - day + 60_000 },
      ])
      .execute();
    await t.db
      .insertInto('login_address_failures')
      .values([
        { address_key: 'old', tokens: 1, refilled_at: now - 2 * day },
        { address_key: 'recent', tokens: 3, refilled_at: now },
      ])
      .execute();
    await jobHandlers(t.deps)['housekeeping.idleBuckets']?.run({} as never);
    const buckets = await t.db.selectFrom('rate_buckets').select('key').execute();
    const logins = await t.db.selectFrom('login_address_failures').select('address_key').execute();
    expect(buckets.map((r) => r.key)).toEqual(['recent']);
    expect(logins.map((r) => r.address_key)).toEqual(['recent']);
  });

  it('runs every hour', () => {
    expect(jobSchedules.find((s) => s.name === 'housekeeping.idleBuckets')?.pattern).toBe('47 * * * *');
  });
});
