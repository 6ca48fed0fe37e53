import { expect, it } from 'bun:test';
import { criticalAlarmCodes } from '@medlocker/core';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { eventually, seedBusiness, withTestAuth } from '../../api/src/testing/hub.ts';
import { withSimLocker } from './sim-harness.ts';

describeApi(
  'locker-sim raises and clears critical alarms',
  (t) => {
    it('raises every locker code that opens an alarm and clears each, through the control API', async () => {
      await seedBusiness(t.db);
      await withSimLocker(
        t,
        async ({ machineId, post }) => {
          const alarms = (state?: 'resolved') =>
            t.db
              .selectFrom('alarms')
              .select(['code', 'state', 'resolved_how'])
              .where('machine_id', '=', machineId)
              .$if(state === 'resolved', (q) => q.where('state', '=', 'resolved'))
              .execute();
          const lockerCodes = criticalAlarmCodes.filter((c) => c.startsWith('EM_'));
          for (const code of lockerCodes) expect((await post({ do: 'alarm', code })).status).toBe(200);
          await eventually(async () => (await alarms()).length === lockerCodes.length, 5000);
          for (const code of lockerCodes) expect((await post({ do: 'clearAlarm', code })).status).toBe(200);
          await eventually(async () => (await alarms('resolved')).length === lockerCodes.length, 5000);
          expect(new Set((await alarms()).map((a) => a.resolved_how))).toEqual(new Set(['locker']));
        },
        { stateDir: true },
      );
    }, 30_000);
  },
  withTestAuth,
);
