import { expect, it } from 'bun:test';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server and a locker.
import { listen, seedBusiness, TestLocker } from '../../../api/src/testing/hub.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker machines', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  /** A test machine of b1 with its locker connected (to another server of the same app) and booted. */
  async function connected(body: (id: string, locker: TestLocker) => Promise<void>) {
    const admin = await loggedIn();
    await seedBusiness(t.db);
    const res = await t.call('testMachines', 'create', { businessId: 'b1', name: 'Bench', numberOfSlots: 4 }, admin);
    const m = res.body.testMachine;
    const hub = listen(t);
    const locker = await TestLocker.connect(hub.url, m.credentials.accessToken);
    try {
      await locker.boot();
      await body(m.id, locker);
    } finally {
      locker.close();
      hub.stop();
    }
  }

  it('asks a locker for its status and prints its answer, in words or --json', async () => {
    await connected(async (id, locker) => {
      const res = await cli(['machines', 'status', id]);
      expect(res.code).toBe(0);
      expect(res.stdout).toBe('The locker answered Accepted: it sends a StatusNotification\n');
      expect((await locker.waitForHubCall('TriggerStatus'))[3]).toEqual({ requested: 'StatusNotification' });
      const json = await cli(['machines', 'status', id, '--message', 'Heartbeat', '--json']);
      expect(json.json()).toMatchObject({ status: 'Accepted', event: { code: 'MP_0010' } });
    });
  });

  it('changes a setting and restarts only when confirmed, and exits 1 when the locker refuses', async () => {
    await connected(async (id, locker) => {
      const unconfirmed = await cli(['machines', 'restart', id]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toBe(`Restart the locker of machine ${id} (Soft)? Add --yes to confirm\n`);
      expect(locker.hubCalls).toEqual([]);

      const restart = await cli(['machines', 'restart', id, '--hard', '--yes']);
      expect(restart.stdout).toBe('The locker answered Accepted: it restarts (Hard) and connects again\n');
      expect((await locker.waitForHubCall('Reset'))[3]).toEqual({ type: 'Hard' });

      locker.reply = (_, p) => ({
        status: (p as { key: string }).key === 'HeartbeatInterval' ? 'Accepted' : 'NotSupported',
      });
      expect((await cli(['machines', 'configure', id, 'HeartbeatInterval', '30', '--yes'])).code).toBe(0);
      const refused = await cli(['machines', 'configure', id, 'Colour', 'blue', '--yes', '--json']);
      expect(refused.code).toBe(1);
      expect(refused.json()).toMatchObject({
        ok: false,
        error: { message: 'The locker answered NotSupported: Colour set to "blue"', status: 'NotSupported' },
      });
    });
  });

  it('exits 1 with the reason when the locker is offline', async () => {
    const admin = await loggedIn();
    await seedBusiness(t.db);
    const m = await t.call('testMachines', 'create', { businessId: 'b1', name: 'Off', numberOfSlots: 4 }, admin);
    const res = await cli(['machines', 'status', m.body.testMachine.id]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('The locker is offline: it cannot be reached now\n');
  });
});
