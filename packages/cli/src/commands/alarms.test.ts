import { expect, it } from 'bun:test';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server and a locker.
import { eventually, listen, lockerEvents, makeReal, seedBusiness, TestLocker } from '../../../api/src/testing/hub.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker alarms', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  it('lists an open alarm, holds it with a reason and a note, resolves it, and refuses what it cannot do', async () => {
    const admin = await loggedIn();
    await seedBusiness(t.db, 'b1', { name: 'Harborne Pharmacy' });
    const res = await t.call('testMachines', 'create', { businessId: 'b1', name: 'Front', numberOfSlots: 4 }, admin);
    const m = res.body.testMachine;
    await makeReal(t, m.id);
    const hub = listen(t);
    const locker = await TestLocker.connect(hub.url, m.credentials.accessToken);
    try {
      await locker.boot();
      await locker.call('MachineEvent', lockerEvents(t)({ code: 'EM_0016' }));
      await eventually(async () => (await cli(['alarms', 'list', '--json'])).json().alarms.length === 1);

      const list = await cli(['alarms', 'list', '--business', 'Harborne Pharmacy']);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain('Front (Harborne Pharmacy)');
      expect(list.stdout).toContain('Open, nobody holds it; told: keyholders');
      const id = (await cli(['alarms', 'list', '--json'])).json().alarms[0].id as string;

      const badReason = await cli(['alarms', 'acknowledge', id, '--reason', 'bored']);
      expect(badReason.code).toBe(2);
      const unknown = await cli(['alarms', 'resolve', 'al_unknown']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe('No unresolved alarm al_unknown among the machines you reach\n');

      const held = await cli(['alarms', 'acknowledge', id, '--reason', 'attending', '--note', 'On my way']);
      expect(held.code).toBe(0);
      expect(held.stdout).toMatch(/^EM_0016 at Front: Acknowledged by .+: Going to the locker \(On my way\)\n$/);
      const again = await cli(['alarms', 'acknowledge', id, '--reason', 'remote']);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe('This alarm is already acknowledged\n');

      expect((await cli(['alarms', 'resolve', id, '--note', 'Door shut'])).stdout).toBe('EM_0016 at Front: resolved\n');
      expect((await cli(['alarms', 'list'])).stdout).toBe('No open alarms\n');
      const history = await cli(['alarms', 'list', '--machine', m.id, '--resolved', '--json']);
      expect(history.json().alarms[0]).toMatchObject({
        id,
        state: 'resolved',
        resolved: { how: 'person', note: 'Door shut' },
      });
    } finally {
      locker.close();
      hub.stop();
    }
  });
});
