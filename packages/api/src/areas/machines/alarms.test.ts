import { expect, it } from 'bun:test';
import type { Alarm } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, T0, type TestApi } from '../../testing/api.ts';
import { eventually, listen, lockerEvents, seedBusiness, TestLocker } from '../../testing/hub.ts';
import { escalateAlarm } from './index.ts';

const MIN = 60_000;

describeApi('critical alarms: acknowledged, escalated, resolved', (t) => {
  /** A real machine of b1 (in group g1) with its locker booted, support and a pharmacist of b1 signed in. */
  async function setUp() {
    await t.db
      .insertInto('groups')
      .values({ id: 'g1', name: 'Group', parent_id: null, email: 'head@group.test', created: 1, updated: 1 })
      .execute();
    await seedBusiness(t.db, 'b1', { mobiles: ['+447700900001'], emails: ['shop@b1.test'] });
    await seedBusiness(t.db, 'b2');
    await t.db.updateTable('businesses').set({ group_id: 'g1' }).where('id', '=', 'b1').execute();
    const support = await t.signIn({
      support: true,
      email: 'sam@support.test',
      givenName: 'Sam',
      familyName: 'Support',
    });
    const pat = await t.signIn({
      givenName: 'Pat',
      familyName: 'Pharm',
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1' }],
    });
    const other = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b2' }] });
    const created = await t.call(
      'testMachines',
      'create',
      { businessId: 'b1', name: 'Front', numberOfSlots: 12 },
      support,
    );
    const tm = created.body.testMachine;
    await t.db.updateTable('machines').set({ is_test: false }).where('id', '=', tm.id).execute();
    const hub = listen(t);
    const locker = await TestLocker.connect(hub.url, tm.credentials.accessToken);
    await locker.boot();
    return { support, pat, other, machineId: tm.id as string, locker, hub, event: lockerEvents(t) };
  }

  /** A pharmacist of b1 (signed in again after the clock moved past a session's idle time). */
  const signInPat = () =>
    t.signIn({
      email: `pat${Math.random()}@b1.test`,
      givenName: 'Pat',
      familyName: 'Pharm',
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1' }],
    });
  const openAlarms = async (s: { cookie: string }, input: Record<string, unknown> = {}) => {
    const res = await t.call('alarms', 'list', input, s);
    expect(res.status).toBe(200);
    return res.body.alarms;
  };
  const outbox = (t: TestApi, templateKey: string) =>
    t.db
      .selectFrom('message_outbox')
      .select(['channel', 'recipient'])
      .where('template_key', '=', templateKey)
      .execute();

  it('opens an alarm for a critical code, escalates it to the group and then support, and a pharmacist holds and resolves it', async () => {
    let { support, pat, other, machineId, locker, hub, event } = await setUp();
    try {
      const raised = await locker.call('MachineEvent', event({ code: 'EM_0003' }));
      expect(raised[0]).toBe(3);
      // A second EM_0003 while it is open is a repeat, not a second alarm; a non-critical code opens none.
      await locker.call('MachineEvent', event({ code: 'EM_0003' }));
      await locker.call('MachineEvent', event({ code: 'EM_0004' }));
      const alarm = (await openAlarms(pat))[0] as Alarm;
      expect(await openAlarms(pat)).toHaveLength(1);
      expect(alarm).toMatchObject({
        code: 'EM_0003',
        state: 'open',
        repeats: 1,
        escalationLevel: 0,
        machineName: 'Front',
      });
      expect(alarm.nextEscalationAt).toBe(T0 + 15 * MIN);
      const job = await t.db.selectFrom('jobs').selectAll().where('type', '=', 'alarms.escalate').execute();
      expect(job.map((j) => Number(j.run_after))).toEqual([T0 + 15 * MIN]);
      // Another business's pharmacist sees none of it and cannot touch it.
      expect(await openAlarms(other)).toEqual([]);
      const foreign = await t.call('alarms', 'acknowledge', { machineId, id: alarm.id, reason: 'attending' }, other);
      expect(foreign.status).toBe(404);

      // Not due yet: nothing happens; due: level 1, the group's and the business's contacts.
      t.advance(14 * MIN);
      expect(await escalateAlarm(t.deps, alarm.id)).toBe('not due');
      t.advance(MIN);
      expect(await escalateAlarm(t.deps, alarm.id)).toBe('escalated');
      expect(await escalateAlarm(t.deps, alarm.id)).toBe('not due');
      expect((await outbox(t, 'alarm.escalated')).map((m) => m.recipient).sort()).toEqual(
        ['+447700900001', 'head@group.test', 'shop@b1.test'].sort(),
      );
      t.advance(15 * MIN);
      expect(await escalateAlarm(t.deps, alarm.id)).toBe('escalated');
      pat = await signInPat();
      support = await t.signIn({ support: true });
      const [escalated] = await openAlarms(pat);
      expect(escalated).toMatchObject({ escalationLevel: 2, nextEscalationAt: null });
      expect((await outbox(t, 'alarm.escalated')).map((m) => m.recipient)).toContain('sam@support.test');

      // Bad input is refused with nothing changed; a named pharmacist holds it.
      const bad = await t.call('alarms', 'acknowledge', { machineId, id: alarm.id, reason: 'bored' }, pat);
      expect(bad.status).toBe(400);
      const ack = await t.call(
        'alarms',
        'acknowledge',
        { machineId, id: alarm.id, reason: 'attending', note: 'On my way' },
        pat,
      );
      expect(ack.status).toBe(200);
      expect(ack.body.alarm).toMatchObject({
        state: 'acknowledged',
        acknowledged: { by: { displayName: 'Pat Pharm' }, reason: 'attending', note: 'On my way' },
      });
      const again = await t.call('alarms', 'acknowledge', { machineId, id: alarm.id, reason: 'remote' }, support);
      expect(again.status).toBe(409);

      const resolved = await t.call('alarms', 'resolve', { machineId, id: alarm.id, note: 'Mains back' }, support);
      expect(resolved.body.alarm).toMatchObject({ state: 'resolved', resolved: { how: 'person', note: 'Mains back' } });
      expect(await openAlarms(pat)).toEqual([]);
      expect(await openAlarms(pat, { machineId, resolved: true })).toHaveLength(1);

      // Every step is on the timeline and in the audit log.
      const timeline = await t.call('machines', 'listEvents', { machineId }, support);
      const codes = timeline.body.events.map((e: { code: string }) => e.code);
      for (const code of ['MP_0013', 'MP_0014', 'MP_0015']) expect(codes).toContain(code);
      for (const action of ['alarm.raised', 'alarm.escalate', 'alarm.acknowledge', 'alarm.resolve'])
        expect((await listAudit(t.db, action)).length).toBeGreaterThan(0);
    } finally {
      locker.close();
      hub.stop();
    }
  });

  it('is resolved by the locker when it reports the code cleared, and an acknowledged alarm never escalates', async () => {
    let { support, pat, machineId, locker, hub, event } = await setUp();
    /** The codes of the dashboard's active alarms (the fleet summary). */
    const dashboardAlarms = async () => {
      const res = await t.call('machines', 'fleetSummary', {}, support);
      expect(res.status).toBe(200);
      return res.body.alarms.map((a) => a.code);
    };
    try {
      await locker.call('MachineEvent', event({ code: 'EM_0016' }));
      const alarm = (await openAlarms(pat))[0] as Alarm;
      expect(await dashboardAlarms()).toContain('EM_0016');
      await t.call('alarms', 'acknowledge', { machineId, id: alarm.id, reason: 'remote' }, pat);
      t.advance(60 * MIN);
      expect(await escalateAlarm(t.deps, alarm.id)).toBe('held');
      expect(await outbox(t, 'alarm.escalated')).toEqual([]);
      pat = await signInPat();
      const cleared = await locker.call('MachineEvent', event({ code: 'EM_0016', data: { cleared: true } }));
      expect(cleared[0]).toBe(3);
      await eventually(async () => (await openAlarms(pat)).length === 0);
      const [done] = await openAlarms(pat, { machineId, resolved: true });
      expect(done).toMatchObject({ state: 'resolved', resolved: { how: 'locker', by: null } });
      // The dashboard's active alarms end with it, not a day later.
      support = await t.signIn({ support: true, email: 'sam2@support.test', givenName: 'Sam', familyName: 'Support' });
      expect(await dashboardAlarms()).not.toContain('EM_0016');
      const resolveAgain = await t.call('alarms', 'resolve', { machineId, id: alarm.id }, pat);
      expect(resolveAgain.status).toBe(409);
    } finally {
      locker.close();
      hub.stop();
    }
  });

  it('takes the escalation interval from the business settings, and refuses one out of range', async () => {
    const { support, pat, locker, hub, event } = await setUp();
    try {
      const refused = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: 'b1', settings: { alarmEscalationMinutes: 0 } },
        support,
      );
      expect(refused.status).toBe(400);
      const set = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: 'b1', settings: { alarmEscalationMinutes: 5 } },
        support,
      );
      expect(set.status).toBe(200);
      await locker.call('MachineEvent', event({ code: 'EM_0009' }));
      const alarm = (await openAlarms(pat))[0] as Alarm;
      expect(alarm.nextEscalationAt).toBe(T0 + 5 * MIN);
    } finally {
      locker.close();
      hub.stop();
    }
  });
});
