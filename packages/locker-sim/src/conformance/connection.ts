import type { Loaded } from './events.ts';
import { type Body, expectEqual, expectTrue, within } from './expect.ts';
import type { Run } from './run.ts';

const boot = (lastSeq?: number) => ({
  vendor: 'Conformance',
  model: 'C1',
  firmwareVersion: '1',
  ...(lastSeq === undefined ? {} : { lastSeq }),
});

/** §3 the upgrade: refusals without a good token, then a connection with the subprotocol. */
export async function connecting(run: Run): Promise<void> {
  run.section = '3 connecting';
  await run.check('401 bodies: no token, an invalid token', async () => {
    const none = await run.upgrade();
    expectEqual(
      [none.status, none.body],
      [401, { error: { code: 'UNAUTHENTICATED', message: 'A locker connects with its access token' } }],
      'no token',
    );
    const bad = await run.upgrade('x'.repeat(43));
    expectEqual(
      [bad.status, bad.body],
      [401, { error: { code: 'UNAUTHENTICATED', message: 'Invalid access token' } }],
      'invalid token',
    );
  });
  await run.check(
    'upgrades with the Bearer token and answers the subprotocol',
    async () => {
      const wire = run.connect();
      await within(wire.opened, 5000, 'connect');
      expectEqual(wire.protocol, 'medlocker.locker.v1', 'subprotocol');
    },
    true,
  );
}

/** §4–8: boot first, the answers to each kind of call, and the error a malformed one gets. */
export async function framesAndErrors(run: Run): Promise<void> {
  run.section = '4–8 frames and errors';
  const call = (action: string, payload: Record<string, unknown>) => run.wire.call(action, payload);
  await run.check('a call before BootNotification is ProtocolError', async () => {
    expectEqual((await call('Heartbeat', {})).slice(2, 3), ['ProtocolError'], 'answer');
  });
  await run.check(
    '5 BootNotification is Accepted with the hub clock, interval and lastSeq 0',
    async () => {
      const answer = await call('BootNotification', boot(0));
      expectEqual(answer[0], 3, `result (${JSON.stringify(answer)})`);
      const r = answer[2] as Body;
      expectEqual([r.status, r.machineId, r.lastSeq, r.outOfOrder], ['Accepted', run.machineId, 0, false], 'result');
      expectTrue(Number.isInteger(r.heartbeatInterval) && r.heartbeatInterval >= 1, 'heartbeatInterval');
      run.offset = r.currentTime - Date.now();
    },
    true,
  );
  await run.check('Heartbeat answers currentTime', async () => {
    const r = (await call('Heartbeat', {}))[2] as Record<string, unknown>;
    expectTrue(typeof r.currentTime === 'number', `result ${JSON.stringify(r)}`);
  });
  await run.check('StatusNotification answers {}', async () => {
    const r = await call('StatusNotification', { observations: { doorOpen: false, slotsFree: 4, slotsTotal: 4 } });
    expectEqual([r[0], r[2]], [3, {}], 'answer');
  });
  await run.check('a frame without a readable id: FormationViolation with id "-1"', async () => {
    expectEqual((await run.wire.raw('{not json')).slice(0, 3), [4, '-1', 'FormationViolation'], 'answer');
  });
  await run.check('an unknown action: NotImplemented', async () => {
    expectEqual((await call('Teleport', {}))[2], 'NotImplemented', 'code');
  });
  await run.check('a payload against its schema: TypeConstraintViolation', async () => {
    const answer = await call('MachineEvent', { eventId: 'x', seq: 'one', created: run.clock(), code: 'EM_0001' });
    expectEqual(answer[2], 'TypeConstraintViolation', 'code');
  });
  await run.check('text holding NUL: FormationViolation', async () => {
    const answer = await run.wire.raw(`[2,"nul","StatusNotification",{"observations":{"a":"\\u0000"}}]`, 'nul');
    expectEqual(answer.slice(0, 3), [4, 'nul', 'FormationViolation'], 'answer');
  });
  await run.check('another machine named in the payload: SecurityError', async () => {
    expectEqual((await call('Heartbeat', { machineId: 'someone-else' }))[2], 'SecurityError', 'code');
  });
  await run.check('VerifyPin of a PIN no order has: Invalid', async () => {
    expectEqual((await call('VerifyPin', { pin: '1234' }))[2], { status: 'Invalid' }, 'result');
  });
}

/**
 * §9 after a reconnect the hub reports the highest seq it stored, and an event replayed from the
 * offline queue (`loaded`, already stored) gets the answer it got the first time.
 */
export async function offlineReplay(run: Run, loaded: Loaded): Promise<void> {
  run.section = '9 offline replay';
  await run.check(
    'after a reconnect, lastSeq is the highest stored; a replayed event gets its first answer',
    async () => {
      run.wire.close();
      await within(run.wire.closed, 5000, 'close');
      const wire = run.connect();
      await within(wire.opened, 5000, 'reconnect');
      const booted = await wire.call('BootNotification', boot(run.seq));
      expectEqual((booted[2] as Record<string, unknown>).lastSeq, run.seq, 'lastSeq');
      // The queue, oldest first, with events the hub has already stored.
      expectEqual((await wire.call('BagLoaded', loaded.event))[2], loaded.answer, 'the replayed BagLoaded');
      const fresh = run.event({ code: 'EM_0017' });
      const first = await wire.call('MachineEvent', fresh);
      const again = await wire.call('MachineEvent', fresh);
      expectEqual(again[2], first[2], 'a duplicate in the same queue');
    },
  );
}

/** §7 a hub call reaches the connected locker. */
export async function hubCalls(run: Run): Promise<void> {
  run.section = '7 hub calls';
  await run.check('SetOutOfOrder reaches the connected locker and lockerNotified is true', async () => {
    const res = await run.rpc('machines', 'toggleOutOfOrderStatus', { id: run.machineId });
    expectEqual(res.lockerNotified, true, 'lockerNotified');
    const call = await run.wire.hubCall('SetOutOfOrder');
    expectEqual((call[3] as Record<string, unknown>).outOfOrder, true, 'payload');
    await run.rpc('machines', 'toggleOutOfOrderStatus', { id: run.machineId });
  });
}
