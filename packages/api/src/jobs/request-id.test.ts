import { expect, it } from 'bun:test';
import { createLogger } from '../log/logger.ts';
import { describeApi } from '../testing/api.ts';
import type { AnyJobs } from './catalogue.ts';
import { enqueueJob, findJob } from './repository.ts';
import { createRunner } from './runner.ts';

describeApi('the request id, from the request to the jobs it queues and their log lines', (t) => {
  let follow: string | null = null;
  const queued: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('debug', (line) => lines.push(JSON.parse(line)));
  const runner = () =>
    createRunner<AnyJobs>({
      db: t.db,
      logger,
      handlers: {
        'probe.first': {
          run: async () => {
            logger.info('probe handler ran');
            // A job queued by a job carries the same request id.
            follow = await enqueueJob<AnyJobs>(t.db, { type: 'probe.second', payload: {} });
          },
        },
        'probe.second': { run: async () => {} },
      },
    });

  it('returns a well-formed X-Request-Id, stores it with the job, and the runner logs it', async () => {
    // A route of the test's own, served by the app (its request scope and hooks), that queues a job.
    t.app.post('/test/queue-probe', async () => {
      const id = await enqueueJob<AnyJobs>(t.db, { type: 'probe.first', payload: {} });
      queued.push(id as string);
      return { id };
    });
    const res = await t.raw('/test/queue-probe', {
      method: 'POST',
      headers: { 'x-request-id': 'req-0123456789abc', origin: 'http://medlocker.test' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-0123456789abc');
    const [id] = queued;
    expect((await findJob(t.db, id as string))?.request_id).toBe('req-0123456789abc');

    const r = runner();
    await r.tick();
    await r.idle();
    await r.tick();
    await r.idle();
    expect((await findJob(t.db, follow as unknown as string))?.request_id).toBe('req-0123456789abc');
    const ofJob = lines.filter((l) => l.jobId === id || l.msg === 'probe handler ran');
    expect(ofJob.map((l) => [l.msg, l.requestId])).toEqual([
      ['probe handler ran', 'req-0123456789abc'],
      ['job done', 'req-0123456789abc'],
    ]);
    expect(lines.find((l) => l.jobId === follow && l.msg === 'job done')?.requestId).toBe('req-0123456789abc');
  });

  it('replaces a malformed or over-long X-Request-Id with its own, and stores that', async () => {
    for (const given of ['has spaces in it', 'x'.repeat(65), 'short', 'ünïcode-0123456']) {
      queued.length = 0;
      const res = await t.raw('/test/queue-probe', {
        method: 'POST',
        headers: { 'x-request-id': given, origin: 'http://medlocker.test' },
      });
      const answered = res.headers.get('x-request-id') as string;
      expect(answered).not.toBe(given);
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
      expect((await findJob(t.db, queued[0] as string))?.request_id).toBe(answered);
    }
  });

  it('stores no request id for a job queued outside any request', async () => {
    const id = await enqueueJob<AnyJobs>(t.db, { type: 'probe.second', payload: {} });
    expect((await findJob(t.db, id as string))?.request_id).toBeNull();
  });
});
