import { expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criticalAlarmCodes } from '@medlocker/core';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { asSupport, eventually, listen, seedBusiness, withTestAuth } from '../../api/src/testing/hub.ts';
import { startControl } from './control.ts';
import { SimLocker } from './locker.ts';

describeApi(
  'locker-sim raises and clears critical alarms',
  (t) => {
    it('raises every locker code that opens an alarm and clears each, through the control API', async () => {
      await seedBusiness(t.db);
      const created = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'Sim', numberOfSlots: 24 },
        asSupport,
      );
      const tm = created.body.testMachine;
      const stateDir = mkdtempSync(join(tmpdir(), 'locker-sim-'));
      const hub = listen(t);
      const sim = new SimLocker({
        api: hub.http,
        index: 1,
        stateDir,
        credentials: { machineId: tm.id, ...tm.credentials },
        readingEverySeconds: 3600,
      });
      const control = startControl([sim], 0);
      const post = (body: unknown) =>
        fetch(`http://127.0.0.1:${control.port}/lockers/1`, { method: 'POST', body: JSON.stringify(body) });
      const alarms = (state?: 'resolved') =>
        t.db
          .selectFrom('alarms')
          .select(['code', 'state', 'resolved_how'])
          .where('machine_id', '=', tm.id)
          .$if(state === 'resolved', (q) => q.where('state', '=', 'resolved'))
          .execute();
      const lockerCodes = criticalAlarmCodes.filter((c) => c.startsWith('EM_'));
      try {
        await sim.start();
        await eventually(() => sim.status === 'online');
        for (const code of lockerCodes) expect((await post({ do: 'alarm', code })).status).toBe(200);
        await eventually(async () => (await alarms()).length === lockerCodes.length, 5000);
        for (const code of lockerCodes) expect((await post({ do: 'clearAlarm', code })).status).toBe(200);
        await eventually(async () => (await alarms('resolved')).length === lockerCodes.length, 5000);
        expect(new Set((await alarms()).map((a) => a.resolved_how))).toEqual(new Set(['locker']));
      } finally {
        sim.stop();
        control.stop(true);
        hub.stop();
        rmSync(stateDir, { recursive: true, force: true });
      }
    }, 30_000);
  },
  withTestAuth,
);
