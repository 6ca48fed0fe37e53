import { expect, it, setDefaultTimeout } from 'bun:test';
import { enqueueJob } from '../../jobs/repository.ts';
import { describeApi, T0 } from '../../testing/api.ts';

// Each sign-in hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

describeApi('background jobs for support', (t) => {
  /** A job in each state: waiting, failed (waiting after a failure), running, dead, done. */
  async function seedJobs() {
    const ids: Record<string, string> = {};
    for (const [name, type] of [
      ['waiting', 'message.send'],
      ['failed', 'message.send'],
      ['running', 'message.send'],
      ['dead', 'message.send'],
      ['done', 'webhook.deliver'],
    ] as const) {
      ids[name] = (await enqueueJob(t.db, { type, payload: { secret: 'not shown' } }, T0)) as string;
    }
    const set = (id: string | undefined, values: Record<string, unknown>) =>
      t.db
        .updateTable('jobs')
        .set(values)
        .where('id', '=', id ?? '')
        .execute();
    await set(ids.failed, { attempts: 1, last_error: 'gateway said 503' });
    await set(ids.running, { status: 'running', attempts: 1, locked_by: 'w', locked_until: T0 + 60_000 });
    await set(ids.dead, { status: 'dead', attempts: 5, last_error: 'gateway said 400' });
    await set(ids.done, { status: 'done', attempts: 1 });
    return ids;
  }

  it('counts each queue by state, and lists jobs newest first by type and state, without payloads', async () => {
    const { cookie } = await t.signIn({ support: true });
    const ids = await seedJobs();
    const queues = await t.call('jobs', 'listQueues', {}, { cookie });
    expect(queues.status).toBe(200);
    expect(queues.body.queues).toEqual([{ type: 'message.send', waiting: 1, failed: 1, running: 1, dead: 1 }]);

    const all = await t.call('jobs', 'listJobs', {}, { cookie });
    expect(all.body.jobs.map((j) => j.state)).toEqual(['done', 'dead', 'running', 'failed', 'waiting']);
    expect(all.body.nextToken).toBeNull();
    expect(JSON.stringify(all.body)).not.toContain('not shown');
    const dead = await t.call('jobs', 'listJobs', { status: 'dead' }, { cookie });
    expect(dead.body.jobs).toEqual([
      expect.objectContaining({ id: ids.dead, type: 'message.send', attempts: 5, lastError: 'gateway said 400' }),
    ]);
    const failed = await t.call('jobs', 'listJobs', { status: 'failed', type: 'message.send' }, { cookie });
    expect(failed.body.jobs.map((j) => j.id)).toEqual([ids.failed as string]);
    const bad = await t.call('jobs', 'listJobs', { status: 'stuck' }, { cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: 'status', id: 'INVALID_FORMAT' });
  });

  it('pages 50 at a time', async () => {
    const { cookie } = await t.signIn({ support: true });
    for (let i = 0; i < 51; i++) await enqueueJob(t.db, { type: 'a', payload: {} }, T0);
    const first = await t.call('jobs', 'listJobs', {}, { cookie });
    expect(first.body.jobs).toHaveLength(50);
    const second = await t.call('jobs', 'listJobs', { nextToken: first.body.nextToken }, { cookie });
    expect(second.body.jobs).toHaveLength(1);
    expect(second.body.nextToken).toBeNull();
    expect(new Set([...first.body.jobs, ...second.body.jobs].map((j) => j.id)).size).toBe(51);
  });

  it('retries a dead job (waiting again with all its attempts); any other job is a 409, an unknown one 404', async () => {
    const { cookie } = await t.signIn({ support: true });
    const ids = await seedJobs();
    const retried = await t.call('jobs', 'retryJob', { id: ids.dead }, { cookie });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: ids.dead, state: 'waiting', attempts: 0, lastError: 'gateway said 400' });
    for (const id of [ids.dead, ids.waiting, ids.failed, ids.running, ids.done]) {
      const again = await t.call('jobs', 'retryJob', { id }, { cookie });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe('Only a dead job can be retried');
    }
    expect((await t.call('jobs', 'retryJob', { id: 'nope' }, { cookie })).status).toBe(404);
  });

  it('is for support staff only', async () => {
    const pharmacy = await t.signIn({ email: 'p@pharmacy.test' });
    for (const [method, input] of [
      ['listQueues', {}],
      ['listJobs', {}],
      ['retryJob', { id: 'x' }],
    ] as const) {
      expect((await t.call('jobs', method, input)).status).toBe(401);
      expect((await t.call('jobs', method, input, { cookie: pharmacy.cookie })).status).toBe(403);
    }
  });
});
