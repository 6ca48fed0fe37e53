import { afterAll, afterEach, expect, it } from 'bun:test';
import { WEBHOOK_TEST_EVENT } from '@medlocker/core';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { jobHandlers } from '../../job-handlers.ts';
import { createRunner } from '../../jobs/runner.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { saveTestIntegrationClient } from '../../testing/webhooks.ts';
import { DISABLE_AFTER_MS, RETRY_DELAYS_MS, sweepDueDeliveries, webhookDispatchHandler } from './dispatch.ts';
import { recordEvent } from './events.ts';
import { DISPATCH_JOB, queueDispatch } from './repository.ts';

/**
 * A local receiver, as a partner's would be: records every request (headers and raw body) and answers
 * as the test says (by default 200 "ok").
 */
type Seen = { id: string; timestamp: string; signature: string; body: string; path: string; userAgent: string };
const seen: Seen[] = [];
let answer: (req: Request, body: string) => Response | Promise<Response> = () => new Response('ok');
const receiver = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const body = await req.text();
    seen.push({
      id: req.headers.get('webhook-id') ?? '',
      timestamp: req.headers.get('webhook-timestamp') ?? '',
      signature: req.headers.get('webhook-signature') ?? '',
      body,
      path: new URL(req.url).pathname,
      userAgent: req.headers.get('user-agent') ?? '',
    });
    return answer(req, body);
  },
});
const receiverUrl = `http://127.0.0.1:${receiver.port}/hooks`;
afterEach(() => {
  seen.length = 0;
  answer = () => new Response('ok');
});
afterAll(() => receiver.stop(true));

/** Verifies a received request with the `standardwebhooks` library, exactly as a receiver does. */
const verify = (secret: string, s: Seen) =>
  new Webhook(secret).verify(s.body, {
    'webhook-id': s.id,
    'webhook-timestamp': s.timestamp,
    'webhook-signature': s.signature,
  }) as { id: string; type: string; data: Record<string, unknown> };

const PRIVATE_OK = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1' };

/** A promise and the function that resolves it: one step of a test that runs transactions at once. */
function signal() {
  let fire = () => {};
  const fired = new Promise<void>((r) => {
    fire = r;
  });
  return { fire, fired };
}

/** Waits (up to 4 s) until `count` sessions of the test's PostgreSQL database wait for a lock. */
async function untilLockWait(t: TestApi, count = 1) {
  const until = Date.now() + 4_000;
  while (Date.now() < until) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if (Number(rows[0]?.n) >= count) return;
    await Bun.sleep(10);
  }
}

/** The pieces every suite below uses: a client with a webhook URL, events, and a runner of dispatch jobs. */
function kit(t: TestApi) {
  const createClient = (webhookUrl: string | null = receiverUrl) => saveTestIntegrationClient(t, webhookUrl);
  const client = async (webhookUrl: string | null = receiverUrl) => {
    await seedBusiness(t.db);
    const res = await createClient(webhookUrl);
    expect(res.status).toBe(200);
    return { id: res.body.client.id as string, secret: res.body.webhookSecret as string };
  };
  const event = (orderingKey: string | null = 'o1', data: Record<string, unknown> = {}, type = 'order.created') =>
    recordEvent(
      t.db,
      { businessId: 'b1', type: type as 'order.created', orderingKey, data: { id: orderingKey, ...data } },
      t.deps.now(),
    );
  const runner = (timeoutMs = 2_000) =>
    createRunner({
      db: t.db,
      logger: t.deps.logger,
      now: t.deps.now,
      handlers: { [DISPATCH_JOB]: webhookDispatchHandler(t.deps, { timeoutMs }) },
    });
  /** Runs every due dispatch job to its end (a job queues the next one for later: not run here). */
  const drain = async (timeoutMs?: number) => {
    const r = runner(timeoutMs);
    await r.tick();
    await r.idle();
  };
  const delivery = (id: string) =>
    t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempts = (id: string) =>
    t.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', id)
      .orderBy('attempted_at')
      .orderBy('id')
      .execute();
  const dispatchJobs = () =>
    t.db.selectFrom('jobs').selectAll().where('type', '=', DISPATCH_JOB).where('status', '<>', 'done').execute();
  return { createClient, client, event, drain, delivery, attempts, dispatchJobs };
}

describeApi(
  'webhook dispatch',
  (t) => {
    const { client, event, drain, delivery, attempts, dispatchJobs } = kit(t);

    it('delivers an event once, signed so the standardwebhooks library verifies it, and records the attempt', async () => {
      const { secret } = await client();
      const stored = await event('o1', { reference: 'R-1' });
      await drain();
      expect(seen.length).toBe(1);
      const got = seen[0] as Seen;
      expect(got.id).toBe(stored?.eventId ?? '');
      expect(got.userAgent).toContain('MedLocker');
      expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(5);
      const body = verify(secret, got);
      expect(body).toMatchObject({ id: got.id, type: 'order.created', data: { id: 'o1', reference: 'R-1' } });
      expect(got.signature.split(' ').length).toBe(1);
      const d = await delivery(got.id);
      expect([d.status, d.attempts, d.last_status, Number(d.delivered_at)]).toEqual([
        'succeeded',
        1,
        200,
        t.deps.now(),
      ]);
      const [a] = await attempts(got.id);
      expect([a?.trigger, a?.status, a?.response_excerpt, a?.error]).toEqual(['schedule', 200, 'ok', null]);
      expect(a?.latency_ms).toBeGreaterThanOrEqual(0);
      // Done, and nothing queued: no pending delivery is left.
      expect(await dispatchJobs()).toEqual([]);
      expect(
        (await t.db.selectFrom('integration_clients').select('webhook_failing_since').executeTakeFirstOrThrow())
          .webhook_failing_since,
      ).toBeNull();
    });

    it('retries a failing endpoint on the schedule with the same webhook-id, then gives the delivery up as dead', async () => {
      const { secret } = await client();
      answer = () => new Response('down for maintenance', { status: 503 });
      const stored = await event('o1');
      const id = stored?.eventId ?? '';
      await drain();
      // The first failure is retried at once: two attempts, then the next waits 5 s.
      expect(seen.length).toBe(2);
      let d = await delivery(id);
      expect([d.status, d.schedule_step, Number(d.next_attempt_at) - t.deps.now()]).toEqual(['pending', 2, 5_000]);
      // The job is done and queued again for that time.
      const jobs = await dispatchJobs();
      expect(jobs.map((j) => [j.status, Number(j.run_after) - t.deps.now()])).toEqual([['waiting', 5_000]]);
      // Not yet due: nothing goes.
      t.advance(4_999);
      await drain();
      expect(seen.length).toBe(2);
      for (const delay of RETRY_DELAYS_MS.slice(1)) {
        t.advance(delay);
        await drain();
      }
      expect(seen.length).toBe(RETRY_DELAYS_MS.length + 1);
      expect(new Set(seen.map((s) => s.id))).toEqual(new Set([id]));
      for (const s of seen) expect(verify(secret, s).id).toBe(id);
      d = await delivery(id);
      expect([d.status, d.attempts, d.last_status, d.last_error]).toEqual(['failed', 11, 503, 'HTTP 503']);
      const tries = await attempts(id);
      expect(tries.length).toBe(11);
      expect(tries.map((a) => a.response_excerpt)).toContain('down for maintenance');
      expect(await dispatchJobs()).toEqual([]);
      // Dead: nothing more, however long we wait.
      t.advance(7 * 86_400_000);
      await drain();
      expect(seen.length).toBe(11);
    });

    it('signs each attempt afresh: a new timestamp and signature, the same id', async () => {
      const { secret } = await client();
      answer = () => new Response('no', { status: 500 });
      await event('o1');
      await drain();
      await Bun.sleep(1_100);
      t.advance(5_000);
      answer = () => new Response('ok');
      await drain();
      expect(seen.length).toBe(3);
      const [first, , last] = seen as [Seen, Seen, Seen];
      expect(last.id).toBe(first.id);
      expect(last.timestamp).not.toBe(first.timestamp);
      expect(last.signature).not.toBe(first.signature);
      expect(verify(secret, last).id).toBe(first.id);
    });

    it('counts a receiver that does not answer in time as a failure', async () => {
      await client();
      answer = async () => {
        await Bun.sleep(1_000);
        return new Response('late');
      };
      const stored = await event('o1');
      await drain(150);
      const tries = await attempts(stored?.eventId ?? '');
      expect(tries.length).toBe(2);
      expect(tries.map((a) => [a.status, a.error])).toEqual([
        [null, 'Timed out after 150 ms'],
        [null, 'Timed out after 150 ms'],
      ]);
      expect(tries.every((a) => a.latency_ms >= 140 && a.latency_ms < 1_000)).toBe(true);
    });

    it('keeps a later event about an order waiting while an earlier one fails, and releases it once that one is dead', async () => {
      const { secret } = await client();
      answer = (_req, body) =>
        JSON.parse(body).data.step === 'a' ? new Response('no', { status: 500 }) : new Response('ok');
      const a = await event('o1', { step: 'a' });
      const b = await event('o1', { step: 'b' });
      const other = await event('o2', { step: 'c' });
      await drain();
      // o1's second event waits behind the first; o2's goes.
      expect(seen.map((s) => verify(secret, s).data.step)).toEqual(['a', 'c', 'a']);
      expect((await delivery(b?.eventId ?? '')).attempts).toBe(0);
      expect((await delivery(other?.eventId ?? '')).status).toBe('succeeded');
      // The head recovers: b follows it, in order, in the same run.
      answer = () => new Response('ok');
      t.advance(5_000);
      await drain();
      expect(seen.slice(3).map((s) => verify(secret, s).data.step)).toEqual(['a', 'b']);
      expect((await delivery(a?.eventId ?? '')).status).toBe('succeeded');
      expect((await delivery(b?.eventId ?? '')).status).toBe('succeeded');

      // A head that dies no longer holds the next one back.
      seen.length = 0;
      answer = (_req, body) =>
        JSON.parse(body).data.step === 'x' ? new Response('no', { status: 500 }) : new Response('ok');
      const x = await event('o3', { step: 'x' });
      const y = await event('o3', { step: 'y' });
      await drain();
      for (const delay of RETRY_DELAYS_MS.slice(1)) {
        t.advance(delay);
        await drain();
      }
      expect((await delivery(x?.eventId ?? '')).status).toBe('failed');
      expect((await delivery(y?.eventId ?? '')).status).toBe('succeeded');
      expect(seen.map((s) => verify(secret, s).data.step).slice(-2)).toEqual(['x', 'y']);
    });

    it('loses nothing and doubles nothing when the receiver is down and then back', async () => {
      // A receiver on a port that is then closed: connections are refused while it is down.
      const got = new Map<string, number>();
      const serve = (port = 0) =>
        Bun.serve({
          port,
          hostname: '127.0.0.1',
          fetch: async (req) => {
            const id = req.headers.get('webhook-id') ?? '';
            got.set(id, (got.get(id) ?? 0) + 1);
            return new Response('ok');
          },
        });
      const first = serve();
      const port = first.port as number;
      first.stop(true);
      await client(`http://127.0.0.1:${port}/hooks`);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await event(`o${i}`))?.eventId ?? '');
      await drain();
      t.advance(5_000);
      await drain();
      const down = await t.db.selectFrom('webhook_attempts').select(['status', 'error']).execute();
      expect(down.length).toBe(60);
      expect(down.every((a) => a.status === null && a.error !== null)).toBe(true);
      const back = serve(port);
      try {
        t.advance(5 * 60_000);
        await drain();
        expect([...got.keys()].sort()).toEqual([...ids].sort());
        expect([...got.values()].every((n) => n === 1)).toBe(true);
        const statuses = await t.db.selectFrom('webhook_deliveries').select('status').distinct().execute();
        expect(statuses).toEqual([{ status: 'succeeded' }]);
      } finally {
        back.stop(true);
      }
    });

    it('does not follow a redirect: a 3xx is a failure and the other address hears nothing', async () => {
      await client();
      answer = (req) =>
        new URL(req.url).pathname === '/hooks'
          ? new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } })
          : new Response('ok');
      const stored = await event('o1');
      await drain();
      expect(seen.map((s) => s.path)).toEqual(['/hooks', '/hooks']);
      const [a] = await attempts(stored?.eventId ?? '');
      expect([a?.status, a?.error]).toEqual([
        302,
        `Redirect not followed (302 to http://127.0.0.1:${receiver.port}/elsewhere)`,
      ]);
      expect((await delivery(stored?.eventId ?? '')).status).toBe('pending');
    });

    it('stores only the first 1 KB of an answer', async () => {
      await client();
      answer = () => new Response('é'.repeat(10) + 'x'.repeat(100_000));
      const stored = await event('o1');
      await drain();
      const [a] = await attempts(stored?.eventId ?? '');
      expect(Buffer.byteLength(a?.response_excerpt ?? '')).toBeLessThanOrEqual(1024);
      expect(a?.response_excerpt?.startsWith(`${'é'.repeat(10)}xxx`)).toBe(true);
      expect(a?.response_excerpt?.length).toBeGreaterThan(1000);
    });

    it('records an answer with NUL bytes and invalid UTF-8 (the excerpt as text PostgreSQL keeps) and sends it once', async () => {
      await client();
      answer = () => new Response(new Uint8Array([0x6f, 0x6b, 0x00, 0xff, 0xfe, 0x21]), { status: 200 });
      const stored = await event('o1');
      await drain();
      const id = stored?.eventId ?? '';
      expect(seen.length).toBe(1);
      const d = await delivery(id);
      expect([d.status, d.attempts]).toEqual(['succeeded', 1]);
      const [a] = await attempts(id);
      expect(a?.status).toBe(200);
      expect(a?.response_excerpt).toBe('ok\uFFFD\uFFFD\uFFFD!');
      expect(await dispatchJobs()).toEqual([]);
      // And again on a failure: the next attempt is scheduled, nothing is sent twice in a row.
      seen.length = 0;
      answer = () => new Response(new Uint8Array([0x00, 0x00]), { status: 500 });
      const failed = await event('o2');
      await drain();
      expect(seen.length).toBe(2);
      const f = await delivery(failed?.eventId ?? '');
      expect([f.status, f.attempts, f.last_error]).toEqual(['pending', 2, 'HTTP 500']);
    });

    it('keeps no more than 1 KB of what a receiver chooses in an attempt’s error (a redirect’s Location)', async () => {
      await client();
      const far = `http://127.0.0.1:${receiver.port}/${'a'.repeat(200_000)}`;
      answer = () => new Response(null, { status: 302, headers: { location: far } });
      const stored = await event('o1');
      await drain();
      const tries = await attempts(stored?.eventId ?? '');
      expect(tries.length).toBe(2);
      for (const a of tries) {
        expect(a.error?.startsWith(`Redirect not followed (302 to http://127.0.0.1:${receiver.port}/aaa`)).toBe(true);
        expect(a.error?.length).toBeLessThanOrEqual(1024);
      }
      expect((await delivery(stored?.eventId ?? '')).last_error?.length).toBeLessThanOrEqual(1024);
    });

    it('disables an endpoint without waiting in a circle with staff saving its client (the business, then the client)', async () => {
      if (t.kind !== 'postgres') return; // one connection on PGlite: nothing runs at once
      answer = () => new Response('no', { status: 500 });
      await client();
      await t.db
        .updateTable('integration_clients')
        .set({ webhook_failing_since: t.deps.now() - DISABLE_AFTER_MS })
        .execute();
      await event('o1');
      // Staff saving the client: the business's row first (requireEditableBusiness), then the client's,
      // held while the batch that disables the endpoint (and tells the business) is recorded.
      const locked = signal();
      const release = signal();
      const staff = t.db.transaction().execute(async (tx) => {
        await sql`select id from businesses where id = 'b1' for update`.execute(tx);
        locked.fire();
        await release.fired;
        await sql`update integration_clients set name = 'Renamed PMR'`.execute(tx);
      });
      await locked.fired;
      const dispatching = drain();
      const until = Date.now() + 5_000;
      while (Date.now() < until && seen.length === 0) await Bun.sleep(10);
      await untilLockWait(t);
      release.fire();
      await staff; // saved, no deadlock
      await dispatching;
      const row = await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow();
      expect(row.name).toBe('Renamed PMR');
      expect(row.webhook_disabled_at).not.toBeNull();
      const jobs = await t.db
        .selectFrom('jobs')
        .select(['status', 'last_error'])
        .where('type', '=', DISPATCH_JOB)
        .execute();
      expect(jobs).toEqual([{ status: 'done', last_error: null }]);
    });

    it('records a batch without waiting in a circle with staff deleting the client (its row, then its deliveries)', async () => {
      if (t.kind !== 'postgres') return; // one connection on PGlite: nothing runs at once
      await client();
      const stored = await event('o1');
      // Staff's delete: the client's row is taken first (as deleteIntegrationClient's does), held while the
      // batch is sent and starts recording, then deleted (cascading to the deliveries).
      const locked = signal();
      const release = signal();
      const staff = t.db.transaction().execute(async (tx) => {
        await sql`select id from integration_clients for update`.execute(tx);
        locked.fire();
        await release.fired;
        await sql`delete from integration_clients`.execute(tx);
      });
      await locked.fired;
      const dispatching = drain();
      // The batch went out and its record now waits for a lock (the client's row).
      const until = Date.now() + 5_000;
      while (Date.now() < until && seen.length === 0) await Bun.sleep(10);
      await untilLockWait(t);
      expect(seen.map((s) => s.id)).toEqual([stored?.eventId ?? '']);
      release.fire();
      await staff; // deleted, no deadlock
      await dispatching;
      expect(await t.db.selectFrom('integration_clients').select('id').execute()).toEqual([]);
      // The dispatch job did not fail on a deadlock either: it ended, nothing left to retry.
      const jobs = await t.db
        .selectFrom('jobs')
        .select(['status', 'last_error'])
        .where('type', '=', DISPATCH_JOB)
        .execute();
      expect(jobs).toEqual([{ status: 'done', last_error: null }]);
    });

    for (const when of ['before', 'after'] as const) {
      it(`loses no event whose change queues dispatch just ${when} the job marks itself done`, async () => {
        if (t.kind !== 'postgres') return; // one connection on PGlite: nothing runs at once
        await client();
        const first = await event('o1');
        // A change that records its event (and queues dispatch) in its own transaction, committed on release.
        const release = signal();
        const queued = signal();
        const change = () =>
          t.db.transaction().execute(async (tx) => {
            const stored = await recordEvent(
              tx,
              { businessId: 'b1', type: 'order.created', orderingKey: 'o2', data: { id: 'o2' } },
              t.deps.now(),
            );
            queued.fire();
            await release.fired;
            return stored?.eventId ?? '';
          });
        let second: Promise<string> | undefined;
        const handler = webhookDispatchHandler(t.deps);
        const r = createRunner({
          db: t.db,
          logger: t.deps.logger,
          now: t.deps.now,
          handlers: {
            [DISPATCH_JOB]: {
              run: (ctx) =>
                handler.run({
                  ...ctx,
                  complete: async (tx) => {
                    if (when === 'before') {
                      // The change's queueDispatch holds the running job's row: our mark waits for its commit.
                      second = change();
                      await queued.fired;
                      setTimeout(async () => {
                        await untilLockWait(t);
                        release.fire();
                      }, 0);
                      await ctx.complete(tx);
                    } else {
                      // Marked done first: the change's queueDispatch waits for our commit, then finds it done.
                      await ctx.complete(tx);
                      second = change();
                      await untilLockWait(t);
                      setTimeout(release.fire, 50);
                    }
                  },
                }),
            },
          },
        });
        await r.tick();
        await r.idle();
        const secondId = await (second as Promise<string>);
        expect(seen.map((s) => s.id)).toEqual([first?.eventId ?? '']);
        // Either way its delivery has a job waiting for it, and the next run sends it.
        expect((await dispatchJobs()).map((j) => j.status)).toEqual(['waiting']);
        await drain();
        expect(seen.map((s) => s.id)).toEqual([first?.eventId ?? '', secondId]);
      });
    }

    it('records a replayed delivery’s attempt as a replay, and a test event’s as a test', async () => {
      const { secret } = await client();
      answer = () => new Response('no', { status: 500 });
      const stored = await event('o1');
      const id = stored?.eventId ?? '';
      await drain();
      for (const delay of RETRY_DELAYS_MS.slice(1)) {
        t.advance(delay);
        await drain();
      }
      expect((await delivery(id)).status).toBe('failed');
      // What the console does for a replay: pending again, from the start of the schedule, flagged.
      answer = () => new Response('ok');
      await t.db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', schedule_step: 0, replay_requested: true, next_attempt_at: t.deps.now() })
        .where('id', '=', id)
        .execute();
      await queueDispatch(t.db, {
        clientId: stored?.clientId ?? '',
        businessId: 'b1',
        runAfter: t.deps.now(),
        now: t.deps.now(),
      });
      await drain();
      const last = (await attempts(id)).at(-1);
      expect([last?.trigger, last?.status]).toEqual(['replay', 200]);
      const d = await delivery(id);
      expect([d.status, d.replay_requested]).toEqual(['succeeded', false]);
      expect(verify(secret, seen.at(-1) as Seen).id).toBe(id);

      const test = await event(null, {}, WEBHOOK_TEST_EVENT);
      await drain();
      const [testAttempt] = await attempts(test?.eventId ?? '');
      expect([testAttempt?.trigger, testAttempt?.status]).toEqual(['test', 200]);
      expect(verify(secret, seen.at(-1) as Seen).type).toBe(WEBHOOK_TEST_EVENT);

      // A failing test event is tried once, not again in the same second: its one answer is the test's.
      answer = () => new Response('no', { status: 503 });
      const failing = await event(null, {}, WEBHOOK_TEST_EVENT);
      await drain();
      t.advance(RETRY_DELAYS_MS[1] ?? 0);
      await drain();
      expect((await attempts(failing?.eventId ?? '')).map((a) => [a.trigger, a.status])).toEqual([['test', 503]]);
      expect((await delivery(failing?.eventId ?? '')).status).toBe('failed');
    });

    it('disables an endpoint failing for 5 days, tells its business, holds its deliveries and sends them once enabled', async () => {
      const { id: clientId } = await client();
      answer = () => new Response('no', { status: 500 });
      await event('o1');
      await drain();
      const failing = await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow();
      expect(Number(failing.webhook_failing_since)).toBe(t.deps.now());
      expect(failing.webhook_disabled_at).toBeNull();
      t.advance(DISABLE_AFTER_MS - 1);
      await event('o2');
      await drain();
      expect(
        (await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow()).webhook_disabled_at,
      ).toBeNull();
      t.advance(1);
      await event('o3');
      await drain();
      const disabled = await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow();
      expect(Number(disabled.webhook_disabled_at)).toBe(t.deps.now());
      const notes = await t.db.selectFrom('notifications').selectAll().where('business_id', '=', 'b1').execute();
      expect(notes.map((n) => [n.level, n.title])).toEqual([['error', 'Webhooks stopped for Example PMR']]);
      const mails = await t.db
        .selectFrom('message_outbox')
        .selectAll()
        .where('template_key', '=', 'webhook.disabled')
        .execute();
      expect(mails.map((m) => [m.channel, m.recipient, m.subject])).toEqual([
        ['email', 'support@pmr.example', 'Webhooks stopped for Example PMR'],
      ]);
      // Disabled: new events wait; nothing is sent, nothing is queued, however long.
      const sent = seen.length;
      answer = () => new Response('ok');
      const held = await event('o4');
      t.advance(86_400_000);
      await drain();
      expect(seen.length).toBe(sent);
      expect(await sweepDueDeliveries(t.deps)).toBe(0);
      expect((await delivery(held?.eventId ?? '')).status).toBe('pending');
      // Enabled again (what the console does): everything pending goes, in order per key.
      await t.db.updateTable('integration_clients').set({ webhook_disabled_at: null }).execute();
      await queueDispatch(t.db, { clientId, businessId: 'b1', runAfter: t.deps.now(), now: t.deps.now() });
      await drain();
      expect((await delivery(held?.eventId ?? '')).status).toBe('succeeded');
      const pending = await t.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .execute();
      expect(pending).toEqual([]);
      expect(
        (await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow()).webhook_failing_since,
      ).toBeNull();
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
      const { id, secret: old } = await client();
      const rotated = await t.call('integration', 'generateWebhookSecret', { id }, asSupport);
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.webhookSecret as string;
      expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await event('o1');
      await drain();
      const during = seen[0] as Seen;
      expect(during.signature.split(' ').length).toBe(2);
      expect(verify(fresh, during).type).toBe('order.created');
      expect(verify(old, during).type).toBe('order.created');
      t.advance(24 * 3_600_000);
      await event('o2');
      await drain();
      const after = seen[1] as Seen;
      expect(after.signature.split(' ').length).toBe(1);
      expect(verify(fresh, after).type).toBe('order.created');
      expect(() => verify(old, after)).toThrow('No matching signature found');
    });

    it('two rotations at once (a double click): the secret each answered signs, none is lost', async () => {
      const { id, secret: old } = await client();
      // On PostgreSQL both requests are made to overlap: the business's row is held until both wait for it.
      const locked = signal();
      const release = signal();
      const holder = t.db.transaction().execute(async (tx) => {
        if (t.kind === 'postgres') await sql`select id from businesses where id = 'b1' for update`.execute(tx);
        locked.fire();
        if (t.kind === 'postgres') await release.fired;
      });
      await locked.fired;
      const calls = [1, 2].map(() => t.call('integration', 'generateWebhookSecret', { id }, asSupport));
      if (t.kind === 'postgres') await untilLockWait(t, 2);
      release.fire();
      await holder;
      const rotations = await Promise.all(calls);
      expect(rotations.map((r) => r.status)).toEqual([200, 200]);
      const fresh = rotations.map((r) => r.body.webhookSecret as string);
      await event('o1');
      await drain();
      const got = seen[0] as Seen;
      // One rotation came after the other: the later's secret and the earlier's sign; the first one is over.
      expect(got.signature.split(' ').length).toBe(2);
      const verifies = (secret: string) => {
        try {
          verify(secret, got);
          return true;
        } catch {
          return false;
        }
      };
      expect(fresh.map(verifies)).toEqual([true, true]);
      expect(verifies(old)).toBe(false);
    });

    it('signs with a secret stored before webhook secrets were standard base64', async () => {
      const { id } = await client();
      // A base64url secret as newSecret('whsec') made them ("-" and "_": the library refuses the string).
      const legacy = `whsec_${Buffer.from(new Uint8Array(32).fill(251)).toString('base64url')}`;
      expect(legacy).toContain('-');
      expect(() => new Webhook(legacy)).toThrow();
      const { createSecretBox } = await import('../../secrets/secret-box.ts');
      await t.db
        .updateTable('integration_clients')
        .set({
          webhook_secret_encrypted: createSecretBox(t.deps.config.secretsKey).seal(
            legacy,
            `integration_clients.webhook_secret:${id}`,
          ),
        })
        .execute();
      await event('o1');
      await drain();
      // The same key bytes in standard base64 verify.
      const standard = `whsec_${Buffer.from(new Uint8Array(32).fill(251)).toString('base64')}`;
      expect(verify(standard, seen[0] as Seen).type).toBe('order.created');
    });

    it('the sweep queues dispatch for a client whose due delivery lost its job', async () => {
      await client();
      const stored = await event('o1');
      await t.db.deleteFrom('jobs').where('type', '=', DISPATCH_JOB).execute();
      await drain();
      expect(seen.length).toBe(0);
      expect(await sweepDueDeliveries(t.deps)).toBe(1);
      await drain();
      expect(seen.map((s) => s.id)).toEqual([stored?.eventId ?? '']);
      expect(await sweepDueDeliveries(t.deps)).toBe(0);
      // It is one of the runner's schedules, and dispatch one of its handlers.
      const handlers = jobHandlers(t.deps);
      expect(Object.keys(handlers)).toEqual(expect.arrayContaining([DISPATCH_JOB, 'webhooks.sweep']));
    });
  },
  withTestAuth,
  PRIVATE_OK,
);

describeApi(
  'webhook SSRF refusals',
  (t) => {
    const { createClient, client, event, drain, attempts } = kit(t);

    it('refuses private, loopback, link-local, metadata and mapped addresses at save, with a field error', async () => {
      await seedBusiness(t.db);
      for (const url of [
        'http://127.0.0.1/hooks',
        'http://localhost:8080/hooks',
        'https://10.1.2.3/hooks',
        'https://192.168.0.10/hooks',
        'https://169.254.169.254/latest/meta-data',
        'https://[fd00:ec2::254]/',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://100.64.0.1/',
        'ftp://pmr.example/hooks',
      ]) {
        const res = await createClient(url);
        expect(res.status, url).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION');
        expect(JSON.stringify(res.body.error)).toContain('webhookUrl');
      }
      expect(await t.db.selectFrom('integration_clients').selectAll().execute()).toEqual([]);
      // A public address (not called at save) and a name that does not resolve yet are accepted.
      expect((await createClient('https://93.184.216.34/hooks')).status).toBe(200);
      expect((await createClient('https://hooks.pmr.invalid/in')).status).toBe(200);
    });

    it('refuses at send a URL whose host now resolves to a private address, and the receiver hears nothing', async () => {
      await client('https://93.184.216.34/hooks');
      // As though the name now resolved to loopback (DNS rebinding) or a row written before the checks.
      await t.db
        .updateTable('integration_clients')
        .set({ webhook_url: `http://localhost:${receiver.port}/hooks` })
        .execute();
      const stored = await event('o1');
      await drain();
      expect(seen).toEqual([]);
      const tries = await attempts(stored?.eventId ?? '');
      expect(tries.map((a) => [a.status, a.error])).toEqual([
        [null, 'Refused: localhost resolves to 127.0.0.1, a loopback address'],
        [null, 'Refused: localhost resolves to 127.0.0.1, a loopback address'],
      ]);
    });
  },
  withTestAuth,
);
