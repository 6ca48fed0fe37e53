import { expect, it } from 'bun:test';
import { describeApi } from '../testing.ts';
import { claimJobs, enqueueJob, findJob, releaseExpiredLeases } from './repository.ts';
import { startJobRunner } from './start.ts';

describeApi('the api process job runner', (t) => {
  it('starts unless JOBS=off, and stops', async () => {
    expect(startJobRunner(t.deps, { JOBS: 'off' })).toBeUndefined();
    const runner = startJobRunner(t.deps, {});
    expect(runner?.worker).toContain(`:${process.pid}:`);
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
