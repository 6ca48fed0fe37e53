import { expect, it } from 'bun:test';
import { type WebhookDelivery, webhooksPageSize } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { DISPATCH_JOB, dispatchKey } from '../../delivery/webhooks/repository.ts';
import { describeApi, T0, type TestApi } from '../../testing/api.ts';
import { seedBusiness } from '../../testing/hub.ts';
import { deliveryId, seedDeliveries, seedWebhookClient } from '../../testing/webhook-deliveries.ts';

const HOUR = 3_600_000;

/** The dispatch jobs waiting, as the dispatcher would find them. */
const dispatchJobs = (t: TestApi) =>
  t.db
    .selectFrom('jobs')
    .select(['type', 'business_id', 'dedupe_key', 'run_after', 'status', 'payload'])
    .where('type', '=', DISPATCH_JOB)
    .execute();

const deliveryRow = (t: TestApi, id: string) =>
  t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describeApi('webhooks (delivery console)', (t) => {
  /** Support, and pharmacy users of b1: an Admin and a user without Admin. b2 is someone else's. */
  async function estate() {
    await seedBusiness(t.db, 'b1');
    await seedBusiness(t.db, 'b2');
    const support = await t.signIn({ support: true });
    const admin = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1', accessLevels: ['Admin'] }],
    });
    const staff = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1' }] });
    return { support, admin, staff };
  }

  it("shows a pharmacy admin their own business's deliveries and nothing of another's", async () => {
    const { admin, staff } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1');
    const c2 = await seedWebhookClient(t.db, 'b2');
    await seedDeliveries(t.db, { businessId: 'b1', clientId: c1, business: 1 }, [
      { i: 1, status: 'failed', attempts: [[T0, 500]] },
    ]);
    const [theirs] = await seedDeliveries(t.db, { businessId: 'b2', clientId: c2, business: 2 }, [
      { i: 1, status: 'failed', attempts: [[T0, 500]] },
    ]);
    const as = { cookie: admin.cookie };

    const own = await t.call('webhooks', 'listDeliveries', { businessId: 'b1' }, as);
    expect(own.status).toBe(200);
    expect(own.body.deliveries.map((d) => d.id)).toEqual([deliveryId(1, 1)]);

    const before = await deliveryRow(t, theirs as string);
    for (const [method, input] of [
      ['listDeliveries', { businessId: 'b2' }],
      ['getEndpoint', { businessId: 'b2' }],
      ['getDelivery', { id: theirs }],
      ['replayDelivery', { id: theirs }],
      ['replayFailed', { businessId: 'b2', since: 0 }],
      ['sendTestEvent', { businessId: 'b2' }],
      ['enableEndpoint', { businessId: 'b2' }],
    ] as const) {
      const res = await t.call('webhooks', method, input, as);
      expect([method, res.status]).toEqual([method, 404]);
      expect(JSON.stringify(res.body)).not.toContain(c2);
    }
    expect(await deliveryRow(t, theirs as string)).toEqual(before);
    expect(await dispatchJobs(t)).toEqual([]);

    // Staff of the business without the Admin level: the console is for admins.
    const notAdmin = await t.call('webhooks', 'listDeliveries', { businessId: 'b1' }, { cookie: staff.cookie });
    expect(notAdmin.status).toBe(403);
    expect((await t.call('webhooks', 'listDeliveries', { businessId: 'b1' })).status).toBe(401);
  });

  it('pages newest first, 50 a page, and filters by event type, outcome and time', async () => {
    const { support } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1');
    const c2 = await seedWebhookClient(t.db, 'b2');
    await seedDeliveries(
      t.db,
      { businessId: 'b1', clientId: c1, business: 1 },
      Array.from({ length: 120 }, (_, i) => ({
        i,
        created: T0 + i * 1000,
        status: i % 10 === 0 ? ('failed' as const) : i % 2 === 0 ? ('succeeded' as const) : ('pending' as const),
        eventType: i % 3 === 0 ? 'order.collected' : 'order.created',
      })),
    );
    await seedDeliveries(t.db, { businessId: 'b2', clientId: c2, business: 2 }, [{ i: 999, status: 'failed' }]);
    const as = { cookie: support.cookie };
    const list = (input: Record<string, unknown>) => t.call('webhooks', 'listDeliveries', input, as);

    const seen: WebhookDelivery[] = [];
    const sizes: number[] = [];
    let nextToken: string | null = null;
    do {
      const page = await list({ businessId: 'b1', nextToken });
      expect(page.status).toBe(200);
      sizes.push(page.body.deliveries.length);
      seen.push(...page.body.deliveries);
      nextToken = page.body.nextToken;
    } while (nextToken);
    expect(sizes).toEqual([webhooksPageSize, webhooksPageSize, 20]);
    expect(seen.map((d) => d.id)).toEqual(Array.from({ length: 120 }, (_, i) => deliveryId(119 - i, 1)));

    const failed = await list({ businessId: 'b1', outcome: 'failed' });
    expect(failed.body.deliveries.map((d) => d.id)).toEqual(
      [110, 100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0].map((i) => deliveryId(i, 1)),
    );
    expect(failed.body.deliveries.every((d) => d.status === 'failed' && d.nextAttemptAt === null)).toBe(true);
    const collectedFailed = await list({ businessId: 'b1', outcome: 'failed', eventType: 'order.collected' });
    expect(collectedFailed.body.deliveries.map((d) => d.id)).toEqual([90, 60, 30, 0].map((i) => deliveryId(i, 1)));
    const recent = await list({ businessId: 'b1', since: T0 + 115_000 });
    expect(recent.body.deliveries.map((d) => d.id)).toEqual([119, 118, 117, 116, 115].map((i) => deliveryId(i, 1)));
    expect((await list({ businessId: 'b1', eventType: 'webhook.test' })).body).toEqual({
      deliveries: [],
      nextToken: null,
    });

    for (const [input, path] of [
      [{ outcome: 'dead' }, 'outcome'],
      [{ eventType: 'order.eaten' }, 'eventType'],
      [{ since: -1 }, 'since'],
      [{ nextToken: 'not-a-token' }, 'nextToken'],
    ] as const) {
      const res = await list({ businessId: 'b1', ...input });
      expect(res.status).toBe(400);
      expect(res.body.error.details?.[0]).toMatchObject({ path });
    }
    expect((await list({ businessId: 'nope' })).status).toBe(404);
  });

  it('shows a delivery with the body it sends and every attempt, oldest first', async () => {
    const { support } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1');
    const [id] = await seedDeliveries(t.db, { businessId: 'b1', clientId: c1, business: 1 }, [
      {
        i: 7,
        created: T0,
        eventType: 'order.loaded',
        orderingKey: 'order-7',
        status: 'failed',
        attempts: [
          [T0, 500],
          [T0 + 5000, null],
        ],
      },
    ]);
    const res = await t.call('webhooks', 'getDelivery', { id }, { cookie: support.cookie });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toEqual({
      id: id as string,
      eventType: 'order.loaded',
      orderingKey: 'order-7',
      status: 'failed',
      attempts: 2,
      nextAttemptAt: null,
      lastAttemptAt: T0 + 5000,
      lastStatus: null,
      lastError: 'timed out after 10 s',
      deliveredAt: null,
      created: T0,
    });
    expect(res.body.event).toEqual({
      id: id as string,
      sequence: 1,
      type: 'order.loaded',
      timestamp: new Date(T0).toISOString(),
      data: { id: 'order-7', reference: 'RX-7' },
    });
    expect(res.body.attempts).toEqual([
      {
        id: `${id}-a0`,
        attemptedAt: T0,
        trigger: 'schedule',
        status: 500,
        latencyMs: 12,
        error: 'HTTP 500',
        responseExcerpt: '{"answer":500}',
      },
      {
        id: `${id}-a1`,
        attemptedAt: T0 + 5000,
        trigger: 'schedule',
        status: null,
        latencyMs: 13,
        error: 'timed out after 10 s',
        responseExcerpt: null,
      },
    ]);
    expect((await t.call('webhooks', 'getDelivery', { id: 'nope' }, { cookie: support.cookie })).status).toBe(404);
  });

  it('replays a failed delivery from the start of the schedule, queues the dispatch job, and audits it', async () => {
    const { admin } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1');
    const [failed, pending, succeeded] = (await seedDeliveries(t.db, { businessId: 'b1', clientId: c1, business: 1 }, [
      { i: 1, status: 'failed', attempts: [[T0 - HOUR, 500]] },
      { i: 2, status: 'pending', attempts: [[T0 - HOUR, 503]] },
      { i: 3, status: 'succeeded', attempts: [[T0 - HOUR, 200]] },
    ])) as [string, string, string];
    t.advance(60_000);
    const now = T0 + 60_000;
    const as = { cookie: admin.cookie };

    const res = await t.call('webhooks', 'replayDelivery', { id: failed }, as);
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ id: failed, status: 'pending', nextAttemptAt: now, attempts: 1 });
    expect(await deliveryRow(t, failed)).toMatchObject({
      status: 'pending',
      schedule_step: 0,
      next_attempt_at: now,
      replay_requested: true,
      updated: now,
      // What happened before stays for the console: the attempts, the last answer.
      attempts: 1,
      last_status: 500,
    });
    expect(await dispatchJobs(t)).toEqual([
      {
        type: DISPATCH_JOB,
        business_id: 'b1',
        dedupe_key: dispatchKey(c1),
        run_after: now,
        status: 'waiting',
        payload: { clientId: c1 },
      },
    ]);
    expect(await listAudit(t.db, 'webhookDelivery.replay')).toMatchObject([
      { entityType: 'webhookDelivery', entityId: failed, actorUserId: admin.userId },
    ]);

    // A pending one is queued already: refused, unchanged.
    const before = await deliveryRow(t, pending);
    const again = await t.call('webhooks', 'replayDelivery', { id: pending }, as);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This delivery is waiting to be sent already');
    expect(await deliveryRow(t, pending)).toEqual(before);

    // A delivered one may be sent again (the receiver lost it): same id, so it can tell.
    const resend = await t.call('webhooks', 'replayDelivery', { id: succeeded }, as);
    expect(resend.status).toBe(200);
    expect(await deliveryRow(t, succeeded)).toMatchObject({ status: 'pending', replay_requested: true });
    expect(await dispatchJobs(t)).toHaveLength(1);
  });

  it('refuses to replay while the endpoint is disabled or has no URL, changing nothing', async () => {
    const { support } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1', { disabledAt: T0 - HOUR, failingSince: T0 - 5 * 24 * HOUR });
    const [id] = (await seedDeliveries(t.db, { businessId: 'b1', clientId: c1 }, [{ i: 1, status: 'failed' }])) as [
      string,
    ];
    const as = { cookie: support.cookie };
    const before = await deliveryRow(t, id);
    for (const [method, input] of [
      ['replayDelivery', { id }],
      ['replayFailed', { businessId: 'b1', since: 0 }],
      ['sendTestEvent', { businessId: 'b1' }],
    ] as const) {
      const res = await t.call('webhooks', method, input, as);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe('The webhook endpoint is disabled: enable it again first');
    }
    expect(await deliveryRow(t, id)).toEqual(before);
    await t.db.updateTable('integration_clients').set({ webhook_url: null, webhook_disabled_at: null }).execute();
    const noUrl = await t.call('webhooks', 'replayDelivery', { id }, as);
    expect(noUrl.status).toBe(409);
    expect(noUrl.body.error.message).toContain('no webhook URL');
    expect(await dispatchJobs(t)).toEqual([]);
  });

  it('replays every failed delivery made since a time, and only those, answering how many', async () => {
    const { admin } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1');
    const c2 = await seedWebhookClient(t.db, 'b2');
    const ids = await seedDeliveries(t.db, { businessId: 'b1', clientId: c1, business: 1 }, [
      { i: 1, status: 'failed', created: T0 - 3 * HOUR },
      { i: 2, status: 'failed', created: T0 - 2 * HOUR },
      { i: 3, status: 'succeeded', created: T0 - 2 * HOUR },
      { i: 4, status: 'failed', created: T0 - HOUR },
      { i: 5, status: 'pending', created: T0 - HOUR },
    ]);
    const [other] = await seedDeliveries(t.db, { businessId: 'b2', clientId: c2, business: 2 }, [
      { i: 1, status: 'failed', created: T0 - HOUR },
    ]);
    const res = await t.call(
      'webhooks',
      'replayFailed',
      { businessId: 'b1', since: T0 - 2 * HOUR },
      { cookie: admin.cookie },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ replayed: 2 });
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'replay_requested'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: ids[0] as string, status: 'failed', replay_requested: false },
      { id: ids[1] as string, status: 'pending', replay_requested: true },
      { id: ids[2] as string, status: 'succeeded', replay_requested: false },
      { id: ids[3] as string, status: 'pending', replay_requested: true },
      { id: ids[4] as string, status: 'pending', replay_requested: false },
      { id: other as string, status: 'failed', replay_requested: false },
    ]);
    expect((await dispatchJobs(t)).map((j) => j.dedupe_key)).toEqual([dispatchKey(c1)]);
    expect(await listAudit(t.db, 'webhookDelivery.replayFailed')).toMatchObject([
      { entityId: c1, details: { since: T0 - 2 * HOUR, replayed: 2 } },
    ]);
    const none = await t.call('webhooks', 'replayFailed', { businessId: 'b1', since: T0 }, { cookie: admin.cookie });
    expect(none.body).toEqual({ replayed: 0 });
    const missing = await t.call('webhooks', 'replayFailed', { businessId: 'b1' }, { cookie: admin.cookie });
    expect(missing.status).toBe(400);
  });

  it('sends a test event to the endpoint, and refuses one without a webhook URL or an integration', async () => {
    const { support } = await estate();
    const as = { cookie: support.cookie };
    const noClient = await t.call('webhooks', 'sendTestEvent', { businessId: 'b1' }, as);
    expect(noClient.status).toBe(404);
    expect(noClient.body.error.message).toBe('Business b1 has no integration client');

    const c1 = await seedWebhookClient(t.db, 'b1', { webhookUrl: null });
    const noUrl = await t.call('webhooks', 'sendTestEvent', { businessId: 'b1' }, as);
    expect(noUrl.status).toBe(409);
    expect(noUrl.body.error.message).toBe(
      'The integration has no webhook URL: add one in the integration settings first',
    );
    expect(await t.db.selectFrom('integration_events').select('id').execute()).toEqual([]);

    await t.db.updateTable('integration_clients').set({ webhook_url: 'https://pmr.example/hooks' }).execute();
    const sent = await t.call('webhooks', 'sendTestEvent', { businessId: 'b1' }, as);
    expect(sent.status).toBe(200);
    expect(sent.body.delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    const detail = await t.call('webhooks', 'getDelivery', { id: sent.body.delivery.id }, as);
    expect(detail.body.event).toMatchObject({
      type: 'webhook.test',
      data: { message: 'Test event from MedLocker', businessId: 'b1' },
    });
    expect((await dispatchJobs(t)).map((j) => [j.dedupe_key, j.run_after])).toEqual([[dispatchKey(c1), T0]]);
    expect(await listAudit(t.db, 'webhookDelivery.test')).toMatchObject([{ entityId: sent.body.delivery.id }]);
  });

  it('enables a disabled endpoint again, forgetting its run of failures, and sends what waits', async () => {
    const { admin } = await estate();
    const as = { cookie: admin.cookie };
    expect((await t.call('webhooks', 'getEndpoint', { businessId: 'b1' }, as)).body).toEqual({ endpoint: null });
    const c1 = await seedWebhookClient(t.db, 'b1', { disabledAt: T0 - HOUR, failingSince: T0 - 5 * 24 * HOUR });
    await seedDeliveries(t.db, { businessId: 'b1', clientId: c1, business: 1 }, [
      { i: 1, status: 'succeeded', attempts: [[T0 - 6 * 24 * HOUR, 204]] },
      { i: 2, status: 'failed' },
      { i: 3, status: 'pending' },
      { i: 4, status: 'pending' },
    ]);
    const disabled = await t.call('webhooks', 'getEndpoint', { businessId: 'b1' }, as);
    expect(disabled.body.endpoint).toEqual({
      clientId: c1,
      url: 'https://pmr.example/hooks',
      disabledAt: T0 - HOUR,
      failingSince: T0 - 5 * 24 * HOUR,
      pendingCount: 2,
      failedCount: 1,
      lastSuccessAt: T0 - 6 * 24 * HOUR,
    });

    const enabled = await t.call('webhooks', 'enableEndpoint', { businessId: 'b1' }, as);
    expect(enabled.status).toBe(200);
    expect(enabled.body.endpoint).toMatchObject({ disabledAt: null, failingSince: null, pendingCount: 2 });
    expect(
      await t.db
        .selectFrom('integration_clients')
        .select(['webhook_disabled_at', 'webhook_failing_since'])
        .executeTakeFirst(),
    ).toEqual({ webhook_disabled_at: null, webhook_failing_since: null });
    expect((await dispatchJobs(t)).map((j) => j.dedupe_key)).toEqual([dispatchKey(c1)]);
    expect(await listAudit(t.db, 'integrationClient.webhook.enable')).toMatchObject([
      { entityId: c1, details: { disabledAt: T0 - HOUR } },
    ]);

    const again = await t.call('webhooks', 'enableEndpoint', { businessId: 'b1' }, as);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('The webhook endpoint is not disabled');
  });

  it('changes nothing for an archived business', async () => {
    const { support } = await estate();
    const c1 = await seedWebhookClient(t.db, 'b1', { disabledAt: T0 - HOUR });
    const [id] = (await seedDeliveries(t.db, { businessId: 'b1', clientId: c1 }, [{ i: 1, status: 'failed' }])) as [
      string,
    ];
    await t.db
      .updateTable('businesses')
      .set({ archived_at: T0 - HOUR })
      .where('id', '=', 'b1')
      .execute();
    const as = { cookie: support.cookie };
    for (const [method, input] of [
      ['replayDelivery', { id }],
      ['replayFailed', { businessId: 'b1', since: 0 }],
      ['sendTestEvent', { businessId: 'b1' }],
      ['enableEndpoint', { businessId: 'b1' }],
    ] as const) {
      const res = await t.call('webhooks', method, input, as);
      expect([method, res.status]).toEqual([method, 409]);
      expect(res.body.error.message).toContain('archived');
    }
    expect(await dispatchJobs(t)).toEqual([]);
  });
});
