import { expect, it } from 'bun:test';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import {
  deliveryId,
  seedDeliveries,
  seedWebhookClient,
} from '../../../api/src/areas/webhook-deliveries/test-helpers.ts';
import { seedBusiness } from '../../../api/src/hubs/test-kit.ts';
import { describeApi } from '../../../api/src/testing.ts';
import { cliHarness } from '../test-harness.ts';

const AT = Date.UTC(2026, 10, 2, 9, 30);
const HOUR = 3_600_000;

describeApi('medlocker webhooks', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  /** b1's client with a delivered order.created, a failed order.loaded and a failed one an hour later. */
  async function deliveries() {
    await seedBusiness(t.db);
    const clientId = await seedWebhookClient(t.db, 'b1');
    await seedDeliveries(t.db, { businessId: 'b1', clientId }, [
      { i: 1, created: AT, status: 'succeeded', attempts: [[AT, 204]] },
      { i: 2, created: AT, eventType: 'order.loaded', status: 'failed', attempts: [[AT, 500]] },
      { i: 3, created: AT + HOUR, eventType: 'order.loaded', status: 'failed', attempts: [[AT + HOUR, null]] },
    ]);
  }

  it("lists a business's deliveries newest first, filtered by event and outcome", async () => {
    await loggedIn();
    await deliveries();
    const res = await cli(['webhooks', 'list', '--business', 'b1']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Made\s+Id\s+Event\s+Outcome\s+Tries\s+Last$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['02-11-2026 10:30:00', deliveryId(3), 'order.loaded', 'failed', '1', 'timed out after 10 s'],
      ['02-11-2026 09:30:00', deliveryId(2), 'order.loaded', 'failed', '1', '500'],
      ['02-11-2026 09:30:00', deliveryId(1), 'order.created', 'succeeded', '1', '204'],
    ]);
    const failed = await cli(['webhooks', 'list', '--business', 'b1', '--outcome', 'failed', '--json']);
    expect(failed.json().deliveries.map((d: { id: string }) => d.id)).toEqual([deliveryId(3), deliveryId(2)]);
    const created = await cli(['webhooks', 'list', '--business', 'b1', '--event', 'order.created', '--json']);
    expect(created.json()).toMatchObject({ deliveries: [{ id: deliveryId(1), status: 'succeeded' }], nextToken: null });
    const recent = await cli(['webhooks', 'list', '--business', 'b1', '--since', '2026-11-02T10:00:00Z', '--json']);
    expect(recent.json().deliveries.map((d: { id: string }) => d.id)).toEqual([deliveryId(3)]);
  });

  it('replays one delivery, or every failed one since a time', async () => {
    await loggedIn();
    await deliveries();
    const one = await cli(['webhooks', 'replay', deliveryId(2)]);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(`Delivery ${deliveryId(2)} (order.loaded) queued again\n`);
    const row = await t.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'replay_requested'])
      .where('id', '=', deliveryId(2))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', replay_requested: true });

    const again = await cli(['webhooks', 'replay', deliveryId(2)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('This delivery is waiting to be sent already');

    const bulk = await cli(['webhooks', 'replay', '--business', 'b1', '--failed-since', '2026-11-02T09:00:00Z']);
    expect(bulk.code).toBe(0);
    expect(bulk.stdout).toBe('1 failed delivery queued again\n');
    const none = await cli([
      'webhooks',
      'replay',
      '--business',
      'b1',
      '--failed-since',
      '2026-11-02T09:00:00Z',
      '--json',
    ]);
    expect(none.json()).toEqual({ replayed: 0 });
  });

  it('sends a test event, and refuses one without a webhook URL', async () => {
    await loggedIn();
    await seedBusiness(t.db);
    await seedWebhookClient(t.db, 'b1', { webhookUrl: null });
    const refused = await cli(['webhooks', 'test', '--business', 'b1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The integration has no webhook URL');
    await t.db.updateTable('integration_clients').set({ webhook_url: 'https://pmr.example/hooks' }).execute();
    const sent = await cli(['webhooks', 'test', '--business', 'b1', '--json']);
    expect(sent.code).toBe(0);
    expect(sent.json().delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
  });

  it('refuses a wrong command line before calling the API', async () => {
    await loggedIn();
    await seedBusiness(t.db);
    for (const args of [
      ['webhooks', 'replay'],
      ['webhooks', 'replay', '--business', 'b1'],
      ['webhooks', 'replay', 'd1', '--business', 'b1', '--failed-since', '2026-11-02T09:00:00Z'],
      ['webhooks', 'replay', '--business', 'b1', '--failed-since', 'yesterday'],
      ['webhooks', 'list', '--business', 'b1', '--outcome', 'dead'],
      ['webhooks', 'list', '--business', 'b1', '--since', 'soon'],
      ['webhooks', 'list'],
    ]) {
      expect([args.join(' '), (await cli(args)).code]).toEqual([args.join(' '), 2]);
    }
    const unknown = await cli(['webhooks', 'list', '--business', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No business has the id or name "nope"');
  });
});
