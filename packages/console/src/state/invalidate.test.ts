import { describe, expect, it } from 'bun:test';
import type { Notification } from '@medlocker/core';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import {
  catchUpKeysOf,
  catchUpOnSubscribed,
  invalidateAfterMs,
  invalidateOnLivePush,
  staleKeysOf,
} from './invalidate.ts';
import type { LiveListener, LivePush, LiveTopic } from './live.ts';

function setUp() {
  const client = new QueryClient();
  let push: LiveListener = () => {};
  const stop = invalidateOnLivePush(client, (listener) => {
    push = listener;
    return () => {};
  });
  client.setQueryData(['machines', 'getMachine', 'm_1'], { machine: { id: 'm_1' } });
  client.setQueryData(['machines', 'listMachines', 'b_1', '', false, 'pages'], { pages: [], pageParams: [] });
  client.setQueryData(['messages', 'listOutbox', 'b_1', null, 'pages'], { pages: [], pageParams: [] });
  client.setQueryData(['notifications', 'count'], { count: 0 });
  client.setQueryData(['notifications', 'list', null, 'pages'], { pages: [], pageParams: [] });
  const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  const settle = () => new Promise((resolve) => setTimeout(resolve, invalidateAfterMs + 20));
  return { client, push: (p: Parameters<LiveListener>[0]) => push(p), stale, settle, stop };
}

describe('live pushes and the server-state cache', () => {
  it('a machine status push makes the machine and the machine lists stale, not the messages', async () => {
    const t = setUp();
    t.push({ action: 'statusUpdate', params: { machineId: 'm_1', contents: 'loaded' } });
    await t.settle();
    expect(t.stale(['machines', 'getMachine', 'm_1'])).toBe(true);
    expect(t.stale(['machines', 'listMachines', 'b_1', '', false, 'pages'])).toBe(true);
    expect(t.stale(['messages', 'listOutbox', 'b_1', null, 'pages'])).toBe(false);
    t.stop();
  });

  it('a status report makes the status reports stale (the tab reloads), a bag change the contents', async () => {
    const t = setUp();
    const key = (k: unknown[]) => {
      t.client.setQueryData(k, { pages: [], pageParams: [] });
      return k;
    };
    const reports = key(['machines', 'listMachineStatus', 'm_1', '', 'pages']);
    const bags = key(['bags', 'listBags', 'b_1', 'm_1', '', 'pages']);
    t.push({
      action: 'statusUpdate',
      params: { machineId: 'm_1', statusId: 's_1', observations: { door: 'closed' }, created: 1 },
    });
    await t.settle();
    expect(t.stale(reports)).toBe(true);
    expect(t.stale(bags)).toBe(false);
    t.push({ action: 'statusUpdate', params: { machineId: 'm_1', contents: 'loaded' } });
    await t.settle();
    expect(t.stale(bags)).toBe(true);
    t.stop();
  });

  it('a notification push makes the messages list, the bell and the notifications list stale', async () => {
    const t = setUp();
    t.push({ action: 'notification', params: { notification: { businessId: 'b_1' } as Notification } });
    await t.settle();
    expect(t.stale(['messages', 'listOutbox', 'b_1', null, 'pages'])).toBe(true);
    expect(t.stale(['notifications', 'count'])).toBe(true);
    expect(t.stale(['notifications', 'list', null, 'pages'])).toBe(true);
    expect(t.stale(['machines', 'getMachine', 'm_1'])).toBe(false);
    t.stop();
  });

  it('a change of access makes everything stale', async () => {
    const t = setUp();
    t.push({ action: 'switchBusiness', params: { reason: 'accessChanged' } });
    await t.settle();
    expect(t.stale(['messages', 'listOutbox', 'b_1', null, 'pages'])).toBe(true);
    expect(t.stale(['machines', 'getMachine', 'm_1'])).toBe(true);
    t.stop();
  });

  it('an order push makes every answer the order pages show stale (its page, timeline, lists), not the machines', async () => {
    const t = setUp();
    const keys = [
      ['orders', 'get', 'o_1'],
      ['orders', 'listEvents', 'o_1', 'pages'],
      ['orders', 'listOrdersByBusiness', 'b_1', null, true, '', 'pages'],
      ['orders', 'listOrdersByPatient', 'p_1', '', 'pages'],
      // A cancelled or collected order changes the bags to take out.
      ['bags', 'listBagsToRemove', 'b_1', null],
    ];
    for (const key of keys) t.client.setQueryData(key, { pages: [], pageParams: [] });
    t.push({ action: 'statusUpdate', params: { orderId: 'o_1', status: 'loaded', sequence: 2 } });
    await t.settle();
    for (const key of keys) expect(t.stale(key)).toBe(true);
    expect(t.stale(['machines', 'getMachine', 'm_1'])).toBe(false);
    t.stop();
  });

  it('an order, a machine or a notification push makes the usage stats stale (the dashboard tiles)', async () => {
    for (const push of [
      { action: 'statusUpdate', params: { orderId: 'o_1', status: 'collected', sequence: 3 } },
      { action: 'statusUpdate', params: { machineId: 'm_1', online: false } },
      { action: 'notification', params: { notification: { businessId: 'b_1' } as Notification } },
    ] as Parameters<LiveListener>[0][]) {
      const t = setUp();
      const key = ['reports', 'getUsageStats', 'b_1'];
      t.client.setQueryData(key, {});
      t.push(push);
      await t.settle();
      expect([push.action, t.stale(key)]).toEqual([push.action, true]);
      t.stop();
    }
  });

  it('a business archived or unarchived makes its settings pages stale (they answer whether read-only), a group not', async () => {
    const key = ['businessSettings', 'getBusinessSmsTemplates', 'b_1', 'cy'];
    for (const [params, stale] of [
      [{ businessId: 'b_1', archived: null }, true],
      [{ groupId: 'g_1', archived: null }, false],
    ] as const) {
      const t = setUp();
      t.client.setQueryData(key, { templates: {}, archived: true });
      t.push({ action: 'unarchived', params });
      await t.settle();
      expect([params, t.stale(key)]).toEqual([params, stale]);
      t.stop();
    }
  });

  it('a stream of pushes asks for the usage stats again at most once an interval, the first at once, the last not lost', async () => {
    const client = new QueryClient();
    let push: LiveListener = () => {};
    const everyMs = 3_000;
    const stop = invalidateOnLivePush(
      client,
      (listener) => {
        push = listener;
        return () => {};
      },
      [{ key: ['reports', 'getUsageStats'], everyMs }],
    );
    const usage = ['reports', 'getUsageStats', null];
    const machine = ['machines', 'getMachine', 'm_1'];
    const fresh = () => {
      client.setQueryData(usage, {});
      client.setQueryData(machine, { machine: { id: 'm_1' } });
    };
    const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const status = () => push({ action: 'statusUpdate', params: { machineId: 'm_1', contents: 'loaded' } });

    fresh();
    status();
    await wait(invalidateAfterMs + 50);
    // The first push after a quiet spell: both at once.
    expect([stale(usage), stale(machine)]).toEqual([true, true]);

    fresh();
    status();
    await wait(invalidateAfterMs + 50);
    // Within the interval: the machine again, the usage stats held back…
    expect([stale(usage), stale(machine)]).toEqual([false, true]);
    fresh();
    status();
    await wait(invalidateAfterMs + 50);
    expect([stale(usage), stale(machine)]).toEqual([false, true]);
    // …and asked for once when the interval is over, with what the held pushes changed.
    await wait(everyMs);
    expect(stale(usage)).toBe(true);
    stop();
  });
});

describe('a subscription the hub confirms', () => {
  function setUp() {
    const client = new QueryClient();
    let confirm: (topic: LiveTopic) => void = () => {};
    const stop = catchUpOnSubscribed(client, (listener) => {
      confirm = listener;
      return () => {};
    });
    const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
    return { client, confirm: (topic: LiveTopic) => confirm(topic), stale, stop };
  }

  it('reads again the answers its pushes change that were read before it (a push between reached nobody)', () => {
    const t = setUp();
    t.client.setQueryData(['alarms', 'list', 'b_1', null], { alarms: [] });
    t.client.setQueryData(['machines', 'listMachines', 'b_1', '', false, 'pages'], { pages: [], pageParams: [] });
    t.client.setQueryData(['businesses', 'getBusiness', 'b_1'], { business: { id: 'b_1' } });
    t.client.setQueryData(['reports', 'getUsageStats', 'b_1'], { liveOrders: 0 });
    t.confirm({ businessId: 'b_1' });
    expect(t.stale(['alarms', 'list', 'b_1', null])).toBe(true);
    expect(t.stale(['machines', 'listMachines', 'b_1', '', false, 'pages'])).toBe(true);
    // Not what its pushes leave alone, nor the usage stats (their tiles ask again every minute).
    expect(t.stale(['businesses', 'getBusiness', 'b_1'])).toBe(false);
    expect(t.stale(['reports', 'getUsageStats', 'b_1'])).toBe(false);
    t.stop();
  });

  it('leaves alone an answer on its way, and reads one answer once however many confirmations come', async () => {
    const t = setUp();
    let fetches = 0;
    const answers: ((value: { alarms: never[] }) => void)[] = [];
    const key = ['alarms', 'list', 'b_1', null];
    // Held in the cache, and being read again as the page mounts (stale at once).
    t.client.setQueryData(key, { alarms: [] });
    const observer = new QueryObserver(t.client, {
      queryKey: key,
      queryFn: () => {
        fetches++;
        return new Promise<{ alarms: never[] }>((resolve) => answers.push(resolve));
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    expect(fetches).toBe(1);
    t.confirm({ businessId: 'b_1' });
    expect(fetches).toBe(1);
    answers[0]?.({ alarms: [] });
    while (t.client.getQueryState(key)?.fetchStatus !== 'idle') await new Promise((r) => setTimeout(r, 1));
    // A reconnect: every topic confirmed again at once.
    t.confirm({ businessId: 'b_1' });
    t.confirm({ machineId: 'm_1' });
    t.confirm({ fleet: true });
    expect(fetches).toBe(2);
    answers[1]?.({ alarms: [] });
    unsubscribe();
    t.stop();
  });

  it("of the fleet also reads the fleet's summary; of the notifications, only what notification pushes change; of a group, nothing", () => {
    const t = setUp();
    t.client.setQueryData(['machines', 'fleetSummary'], { machines: [] });
    t.client.setQueryData(['notifications', 'count'], { count: 0 });
    t.client.setQueryData(['alarms', 'list', null, null], { alarms: [] });
    t.confirm({ notifications: true });
    expect(t.stale(['notifications', 'count'])).toBe(true);
    expect(t.stale(['alarms', 'list', null, null])).toBe(false);
    t.confirm({ groupId: 'g_1' });
    expect(t.stale(['alarms', 'list', null, null])).toBe(false);
    expect(t.stale(['machines', 'fleetSummary'])).toBe(false);
    t.confirm({ fleet: true });
    expect(t.stale(['machines', 'fleetSummary'])).toBe(true);
    expect(t.stale(['alarms', 'list', null, null])).toBe(true);
    t.stop();
  });

  it('covers every answer but the usage stats that a push of its topic makes stale', () => {
    const pushes: LivePush[] = [
      { action: 'statusUpdate', params: { machineId: 'm_1', contents: 'loaded' } },
      { action: 'statusUpdate', params: { orderId: 'o_1' } as never },
      { action: 'machineEvent', params: { event: {} as never } },
      { action: 'notification', params: { notification: {} as never } },
    ];
    const covered = (key: readonly unknown[], keys: readonly (readonly unknown[])[]) =>
      key[0] === 'reports' || keys.some((k) => k.every((part, i) => key[i] === part));
    for (const push of pushes) {
      for (const key of staleKeysOf(push)) expect(covered(key, catchUpKeysOf({ businessId: 'b_1' }))).toBe(true);
    }
    const notification = pushes[3] as LivePush;
    for (const key of staleKeysOf(notification))
      expect(covered(key, catchUpKeysOf({ notifications: true }))).toBe(true);
  });
});
