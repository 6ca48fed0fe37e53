import { expect, it } from 'bun:test';
import { describeDb } from '@medlocker/db/testing';
import { silentLogger } from '../log/logger.ts';
import type { AnyJobs } from './catalogue.ts';
import { claimJobs, enqueueJob, findJob } from './repository.ts';
import { backoffMs, createRunner, type JobHandler, PermanentJobError } from './runner.ts';
import { pidSpace } from './worker-name.ts';

const T0 = Date.UTC(2026, 10, 2, 9, 30);

describeDb('the job runner', (t) => {
  let clock = T0;
  const now = () => clock;
  const runnerWith = (handlers: Record<string, JobHandler>, extra: { worker?: string } = {}) =>
    createRunner<AnyJobs>({
      db: t.db,
      logger: silentLogger,
      now,
      handlers,
      baseDelayMs: 1_000,
      random: () => 0.5,
      ...extra,
    });
  const jobs = () => t.db.selectFrom('jobs').selectAll().orderBy('created').execute();

  it('queues a job with the change that caused it, nothing when the change rolls back, once per dedupe key', async () => {
    clock = T0;
    await t.db.transaction().execute((tx) => enqueueJob<AnyJobs>(tx, { type: 'a', payload: { n: 1 } }, clock));
    await expect(
      t.db.transaction().execute(async (tx) => {
        await enqueueJob<AnyJobs>(tx, { type: 'a', payload: { n: 2 } }, clock);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: {}, dedupeKey: 'k' }, clock)).toBeString();
    expect(await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: {}, dedupeKey: 'k' }, clock)).toBeNull();
    const rows = await jobs();
    expect(rows.map((r) => r.payload)).toEqual([{ n: 1 }, {}]);
    expect(rows[0]).toMatchObject({ status: 'waiting', attempts: 0, max_attempts: 5, run_after: T0 });
  });

  it('runs a due job once, and a job due later only when its time comes', async () => {
    clock = T0;
    const seen: unknown[] = [];
    const runner = runnerWith({ a: { run: async ({ job }) => void seen.push(job.payload) } });
    const now1 = await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: 'now' }, clock);
    await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: 'later', runAfter: T0 + 60_000 }, clock);
    await runner.tick();
    await runner.idle();
    await runner.tick();
    await runner.idle();
    expect(seen).toEqual(['now']);
    expect((await findJob(t.db, now1 as string))?.status).toBe('done');
    clock = T0 + 60_000;
    await runner.tick();
    await runner.idle();
    expect(seen).toEqual(['now', 'later']);
  });

  it('retries a failure with growing delays, is dead after its last attempt, and runs again when retried', async () => {
    clock = T0;
    let fail = true;
    let runs = 0;
    const runner = runnerWith({
      a: {
        run: async () => {
          runs++;
          if (fail) throw new Error('gateway said 503');
        },
      },
    });
    const id = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: {}, maxAttempts: 3 }, clock)) as string;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await runner.tick();
      await runner.idle();
      const job = await findJob(t.db, id);
      expect(job).toMatchObject({ attempts: attempt, last_error: 'gateway said 503' });
      if (attempt < 3) {
        expect(job?.status).toBe('waiting');
        delays.push((job?.run_after ?? 0) - clock);
        await runner.tick(); // not yet due: nothing runs
        await runner.idle();
        expect(runs).toBe(attempt);
        clock = job?.run_after ?? clock;
      } else expect(job?.status).toBe('dead');
    }
    // random 0.5 → three quarters of 1 s, then of 2 s
    expect(delays).toEqual([750, 1_500]);
    const { retryDeadJob } = await import('./repository.ts');
    expect(await retryDeadJob(t.db, id, clock)).toMatchObject({ status: 'waiting', attempts: 0 });
    expect(await retryDeadJob(t.db, id, clock)).toBeNull();
    fail = false;
    await runner.tick();
    await runner.idle();
    expect(await findJob(t.db, id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('marks a job dead at once on a permanent failure or an unknown type', async () => {
    clock = T0;
    const runner = runnerWith({
      a: {
        run: async () => {
          throw new PermanentJobError('400: number not valid');
        },
      },
    });
    const id = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: {} }, clock)) as string;
    await runner.tick();
    await runner.idle();
    expect(await findJob(t.db, id)).toMatchObject({ status: 'dead', attempts: 1, last_error: '400: number not valid' });
  });

  it('takes again a job whose worker died, once its lease has run out', async () => {
    clock = T0;
    const id = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: {} }, clock)) as string;
    const [taken] = await claimJobs(t.db, {
      types: ['a'],
      worker: 'dead-worker',
      now: clock,
      leaseMs: 60_000,
      limit: 5,
    });
    expect(taken).toMatchObject({ id, attempts: 1 });
    expect(await findJob(t.db, id)).toMatchObject({ status: 'running', locked_by: 'dead-worker' });
    let runs = 0;
    const runner = runnerWith({ a: { run: async () => void runs++ } });
    // A runner looks for run-out leases at most once a second (the boundary itself: start.test.ts).
    clock = T0 + 59_000;
    await runner.tick();
    await runner.idle();
    expect(runs).toBe(0);
    clock = T0 + 60_000;
    await runner.tick();
    await runner.tick();
    await runner.idle();
    expect(runs).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('takes back at once the jobs of a runner in this pid space whose process is gone; others wait for their lease', async () => {
    clock = T0;
    const space = pidSpace();
    expect(space).toMatch(/^[0-9a-f]{8}$/); // Linux: the product's platform
    const gone = Bun.spawn(['true']);
    await gone.exited;
    const alive = Bun.spawn(['sleep', '30']);
    try {
      const holders = {
        gone: `host:${gone.pid}:aaaaaaaa:${space}`,
        alive: `host:${alive.pid}:bbbbbbbb:${space}`,
        // the same pid, gone here, but in another pid space (another host or container): not ours to judge
        elsewhere: `host:${gone.pid}:cccccccc:0badc0de`,
      };
      const ids: Record<string, string> = {};
      for (const [name, holder] of Object.entries(holders)) {
        ids[name] = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: name }, clock)) as string;
        await claimJobs(t.db, { types: ['a'], worker: holder, now: clock, leaseMs: 60_000, limit: 1 });
      }
      const seen: unknown[] = [];
      const runner = runnerWith({ a: { run: async ({ job }) => void seen.push(job.payload) } });
      await runner.tick();
      await runner.tick();
      await runner.idle();
      expect(seen).toEqual(['gone']);
      expect(await findJob(t.db, ids.gone as string)).toMatchObject({ status: 'done', attempts: 2 });
      expect(await findJob(t.db, ids.alive as string)).toMatchObject({ status: 'running', locked_by: holders.alive });
      expect(await findJob(t.db, ids.elsewhere as string)).toMatchObject({
        status: 'running',
        locked_by: holders.elsewhere,
      });
    } finally {
      alive.kill();
    }
  });

  it('retries a failure within seconds while its service mostly works, with the full backoff in an outage', async () => {
    clock = T0;
    const failing = new Set<string>();
    const runner = createRunner<AnyJobs>({
      db: t.db,
      logger: silentLogger,
      now,
      baseDelayMs: 1_000,
      blipDelayMs: 100,
      random: () => 0.5,
      concurrency: 50,
      handlers: {
        send: {
          run: async ({ job, dependsOn }) => {
            const { to, n } = job.payload as { to: string; n: number };
            dependsOn(to);
            if (failing.has(`${to}:${n}`)) throw new Error(`${to} said 503`);
          },
        },
      },
    });
    const send = async (to: string, from: number, count: number) => {
      const ids: string[] = [];
      for (let n = from; n < from + count; n++)
        ids.push((await enqueueJob<AnyJobs>(t.db, { type: 'send', payload: { to, n } }, clock)) as string);
      await runner.tick();
      await runner.idle();
      return Promise.all(
        ids.map(async (id) => (await findJob(t.db, id)) as NonNullable<Awaited<ReturnType<typeof findJob>>>),
      );
    };
    const delays = (rows: { status: string; run_after: number }[]) =>
      rows.filter((r) => r.status === 'waiting').map((r) => r.run_after - clock);
    // "up": 10 attempts succeed, then 3 fail: blips (under half of its attempts), retried after 75 ms (¾ of 100 ms).
    expect(delays(await send('up', 0, 10))).toEqual([]);
    for (const n of [10, 11, 12]) failing.add(`up:${n}`);
    expect(delays(await send('up', 10, 3))).toEqual([75, 75, 75]);
    // "down" fails 9 of 12 in the same window: an outage, full backoff (¾ of 1 s), whatever "up" does.
    for (let n = 0; n < 9; n++) failing.add(`down:${n}`);
    expect(delays(await send('down', 0, 12))).toEqual(Array(9).fill(750));
    // A first failure on a service with no attempts to judge by: full backoff too.
    failing.add('new:0');
    expect(delays(await send('new', 0, 1))).toEqual([750]);
    // Out of the window (30 s) "up"'s successes no longer count.
    clock = T0 + 31_000;
    failing.add('up:100');
    expect(delays(await send('up', 100, 1))).toEqual([750]);
  });

  it('ends a job in the handler’s own transaction when it asks: done with it, and not when it rolls back', async () => {
    clock = T0;
    const runner = runnerWith({
      a: {
        run: async ({ job, complete }) => {
          await t.db.transaction().execute(async (tx) => {
            await complete(tx);
            // Inside the transaction the job is already done; a failure after rolls that back too.
            expect(
              (await tx.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirst())?.status,
            ).toBe('done');
            if (job.payload === 'fails') throw new Error('the outcome could not be recorded');
          });
        },
      },
    });
    const ok = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: 'ok' }, clock)) as string;
    const fails = (await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: 'fails' }, clock)) as string;
    await runner.tick();
    await runner.idle();
    expect(await findJob(t.db, ok)).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
    expect(await findJob(t.db, fails)).toMatchObject({
      status: 'waiting',
      attempts: 1,
      last_error: 'the outcome could not be recorded',
    });
  });

  it('takes the oldest due job first: a retry that comes due goes before jobs queued after it', async () => {
    clock = T0;
    const { failJob } = await import('./repository.ts');
    const first = (await enqueueJob<AnyJobs>(t.db, { type: 'fifo', payload: 'first' }, clock)) as string;
    const [taken] = await claimJobs(t.db, { types: ['fifo'], worker: 'w', now: clock, leaseMs: 60_000, limit: 1 });
    expect(taken?.id).toBe(first);
    await failJob(t.db, { id: first, worker: 'w', now: clock, error: '503', retryAt: T0 + 1_000 });
    // A backlog queued after it, due before its retry.
    for (let i = 0; i < 3; i++) await enqueueJob<AnyJobs>(t.db, { type: 'fifo', payload: i }, T0 + 10 + i);
    clock = T0 + 1_000;
    const next = await claimJobs(t.db, { types: ['fifo'], worker: 'w', now: clock, leaseMs: 60_000, limit: 2 });
    expect(next.map((j) => j.payload).sort()).toEqual([0, 'first'].sort());
    expect(next.find((j) => j.id === first)).toMatchObject({ attempts: 2, previousDelay: 1_000 });
    expect(next.find((j) => j.payload === 0)?.previousDelay).toBeNull();
  });

  it('a runner just started keeps the blip pace a job was given by one that could judge its service', async () => {
    clock = T0;
    const failing = new Set<number>();
    const handlers: Record<string, JobHandler> = {
      pace: {
        run: async ({ job, dependsOn }) => {
          dependsOn('gateway');
          const { n } = job.payload as { n: number };
          if (failing.has(n)) throw new Error('gateway said 503');
        },
      },
    };
    const runner = (worker: string) =>
      createRunner<AnyJobs>({
        db: t.db,
        logger: silentLogger,
        now,
        handlers,
        worker,
        baseDelayMs: 1_000,
        blipDelayMs: 100,
        random: () => 0.5,
        concurrency: 50,
      });
    const run = async (r: ReturnType<typeof runner>) => {
      await r.tick();
      await r.idle();
    };
    const waitingDelays = async () =>
      (await jobs()).filter((j) => j.type === 'pace' && j.status === 'waiting').map((j) => j.run_after - clock);
    // A runner that saw 10 successes fails 10 and 11 as blips: retried after ¾ of 100 ms.
    for (let n = 0; n < 12; n++) await enqueueJob<AnyJobs>(t.db, { type: 'pace', payload: { n } }, clock);
    failing.add(10).add(11);
    await run(runner('old'));
    expect(await waitingDelays()).toEqual([75, 75]);
    // A replacement started now has seen nothing of the gateway: it keeps that pace (¾ of 200 ms) rather
    // than the full backoff (¾ of 2 s).
    clock = T0 + 75;
    const young = runner('young');
    await run(young);
    expect(await waitingDelays()).toEqual([150, 150]);
    // An hour on, with too few attempts to judge by (a quiet hour), it is no longer new: the full backoff
    // (¾ of 4 s).
    clock = T0 + 3_600_000;
    await run(young);
    expect(await waitingDelays()).toEqual([3_000, 3_000]);
    // Nor does a new runner keep a full backoff's pace as a blip's (¾ of 8 s).
    clock += 3_000;
    await run(runner('another'));
    expect(await waitingDelays()).toEqual([6_000, 6_000]);
  });

  it('renews the lease of a job in hand, so a slow attempt is not taken by another runner', async () => {
    let runs = 0;
    let release = () => {};
    const handlers: Record<string, JobHandler> = {
      slow: {
        leaseMs: 300,
        run: () => {
          runs++;
          return new Promise<void>((r) => {
            release = r;
          });
        },
      },
    };
    const id = (await enqueueJob<AnyJobs>(t.db, { type: 'slow', payload: {} })) as string;
    const one = createRunner<AnyJobs>({ db: t.db, logger: silentLogger, handlers, pollMs: 20, worker: 'one' });
    const two = createRunner<AnyJobs>({ db: t.db, logger: silentLogger, handlers, pollMs: 20, worker: 'two' });
    one.start();
    while ((await findJob(t.db, id))?.status !== 'running') await Bun.sleep(10);
    two.start();
    const first = (await findJob(t.db, id))?.locked_until ?? 0;
    await Bun.sleep(1_300); // four leases long, and past the other runner's next look for run-out leases
    const held = await findJob(t.db, id);
    expect(held).toMatchObject({ status: 'running', locked_by: 'one' });
    expect(held?.locked_until).toBeGreaterThan(first);
    release();
    await one.idle();
    await Promise.all([one.stop(), two.stop()]);
    expect(runs).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('on stop, lets a job in hand finish within the grace time, else returns it to waiting uncounted', async () => {
    clock = T0;
    let release = () => {};
    const runner = runnerWith({
      quick: { run: () => Bun.sleep(20) },
      slow: {
        // finishes only when the test lets it, after the runner gave up waiting
        run: () =>
          new Promise<void>((r) => {
            release = r;
          }),
      },
    });
    const quick = (await enqueueJob<AnyJobs>(t.db, { type: 'quick', payload: {} }, clock)) as string;
    await runner.tick();
    await runner.stop(1_000);
    expect((await findJob(t.db, quick))?.status).toBe('done');
    const slow = (await enqueueJob<AnyJobs>(t.db, { type: 'slow', payload: {} }, clock)) as string;
    await runner.tick();
    expect((await findJob(t.db, slow))?.status).toBe('running');
    await runner.stop(30);
    release();
    await runner.idle();
    expect(await findJob(t.db, slow)).toMatchObject({ status: 'waiting', attempts: 0, locked_by: null });
  });

  it('with two runners on one database, runs every job exactly once', async () => {
    clock = T0;
    const count = new Map<string, number>();
    const handlers: Record<string, JobHandler> = {
      a: {
        run: async ({ job }) => {
          count.set(job.id, (count.get(job.id) ?? 0) + 1);
          await Bun.sleep(Math.random() * 3);
        },
      },
    };
    const ids: string[] = [];
    for (let i = 0; i < 300; i++)
      ids.push((await enqueueJob<AnyJobs>(t.db, { type: 'a', payload: { i } }, clock)) as string);
    const one = createRunner<AnyJobs>({
      db: t.db,
      logger: silentLogger,
      now,
      handlers,
      concurrency: 4,
      pollMs: 5,
      worker: 'one',
    });
    const two = createRunner<AnyJobs>({
      db: t.db,
      logger: silentLogger,
      now,
      handlers,
      concurrency: 4,
      pollMs: 5,
      worker: 'two',
    });
    one.start();
    two.start();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const left = await t.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '<>', 'done')
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      await Bun.sleep(20);
    }
    await Promise.all([one.stop(), two.stop()]);
    expect(ids.filter((id) => count.get(id) !== 1)).toEqual([]);
    expect(count.size).toBe(300);
    const byWorker = new Set((await jobs()).map((j) => j.attempts));
    expect([...byWorker]).toEqual([1]);
  }, 60_000);
});

it('backs off exponentially with equal jitter, capped', () => {
  expect(backoffMs(1, 1_000, 60_000, () => 0)).toBe(500);
  expect(backoffMs(1, 1_000, 60_000, () => 1)).toBe(1_000);
  expect(backoffMs(4, 1_000, 60_000, () => 0.5)).toBe(6_000);
  expect(backoffMs(30, 1_000, 60_000, () => 1)).toBe(60_000);
});
