import { expect, it } from 'bun:test';
import type { Logger } from '../../log/logger.ts';
import { describeApi } from '../../testing/api.ts';
import { fastHub, seedBusiness, testMachine, withTestAuth } from '../../testing/hub.ts';
import { ReadingsBatcher } from './readings.ts';

describeApi(
  'readings gathered into batches',
  (t) => {
    it('writes what arrives within the gathering time after a batch began in one statement, answering each', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t, 'b1', 'Gathering');
      const row = await t.db.selectFrom('machines').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
      const who = {
        machineId: m.id,
        businessId: row.business_id,
        credentialId: 'c',
        expiresAt: Infinity,
        isTest: true,
      };
      const batches: unknown[] = [];
      const logger: Logger = {
        ...t.deps.logger,
        debug: (msg, fields) => void (msg === 'readings batch' && batches.push(fields?.events)),
      };
      const batcher = new ReadingsBatcher(
        { ...t.deps, logger },
        { ...fastHub.batch, concurrentFlushes: 4, gatherMs: 150 },
      );
      const at = t.deps.now() - 10_000;
      const reading = (n: number) => batcher.add(who, `e${n}`, n, [{ created: at + n, value: 19 }]);
      // The first is written at once (no batch before it); the next three arrive while the gathering
      // time runs, with commit slots free, and wait for it to end: one statement for the three.
      const first = reading(1);
      await Bun.sleep(10);
      const rest = [reading(2)];
      await Bun.sleep(20);
      rest.push(reading(3), reading(4));
      const answers = await Promise.all([first, ...rest]);
      const stored = { stored: 1, duplicate: false };
      expect(answers).toEqual([stored, stored, stored, stored]);
      expect(batches).toEqual([1, 3]);
      expect(await t.db.selectFrom('temperature_readings').select('value').execute()).toHaveLength(4);
    });
  },
  withTestAuth,
);
