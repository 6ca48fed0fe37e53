import { describe, expect, it } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by the locker-sim tests.
import { asSupport, eventually, listen, seedBusiness, withTestAuth } from '../../api/src/testing/hub.ts';
import { SimLocker } from './locker.ts';
import { machineAlertCode } from './protocol.ts';
import { loadScenario, runScenario, type Scenario } from './scenario.ts';

const shipped = join(import.meta.dir, '..', 'scenarios');
const files = readdirSync(shipped).filter((f) => f.endsWith('.json'));

describe('the shipped scenarios', () => {
  it('are there: power failure, temperature excursion and network drop at least', () => {
    expect(files).toEqual(
      expect.arrayContaining(['network-drop.json', 'power-failure.json', 'temperature-excursion.json']),
    );
  });

  for (const file of files) {
    it(`${file} loads, with steps in time order and only codes of the catalogue`, () => {
      const scenario = loadScenario(join(shipped, file));
      expect(scenario.name.length).toBeGreaterThan(0);
      expect(scenario.description?.length ?? 0).toBeGreaterThan(0);
      expect(scenario.steps.length).toBeGreaterThan(0);
      const times = scenario.steps.map((s) => s.at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const step of scenario.steps) if (step.code !== undefined) expect(machineAlertCode(step.code)).toBe(true);
    });
  }

  it('refuses a file with a bad step, naming the step', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locker-sim-scenario-'));
    try {
      const path = join(dir, 'bad.json');
      writeFileSync(
        path,
        JSON.stringify({
          name: 'Bad',
          steps: [
            { at: 1, do: 'alarm' },
            { at: 2, do: 'explode' },
          ],
        }),
      );
      expect(() => loadScenario(path)).toThrow('step 2: "do" must be one of');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The scenario with its clock sped up: every time and duration multiplied by `factor`. */
const sped = (scenario: Scenario, factor: number): Scenario => ({
  ...scenario,
  steps: scenario.steps.map((s) => ({
    ...s,
    at: s.at * factor,
    ...(s.seconds !== undefined ? { seconds: s.seconds * factor } : {}),
  })),
});

describeApi(
  'a shipped scenario against the hub',
  (t) => {
    it('network-drop.json: what happened offline reaches the hub once, in order', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'Sim', numberOfSlots: 24 }, asSupport)
      ).body.testMachine;
      const stateDir = mkdtempSync(join(tmpdir(), 'locker-sim-'));
      const hub = listen(t);
      const credentials = { machineId: tm.id, ...tm.credentials };
      const sim = new SimLocker({ api: hub.http, index: 1, stateDir, credentials, readingEverySeconds: 3600 });
      let cancel = () => {};
      try {
        await sim.start();
        await eventually(() => sim.status === 'online');
        // 5 minutes of network drop in 3 seconds.
        cancel = runScenario(sped(loadScenario(join(shipped, 'network-drop.json')), 0.01), [sim], () => {});
        await eventually(() => sim.status === 'network down', 2000);
        await eventually(() => sim.view().queued === 3, 3000);
        await eventually(() => sim.status === 'online' && sim.view().queued === 0, 10_000);
        const receipts = await t.db
          .selectFrom('locker_event_receipts')
          .select(['action', 'sequence'])
          .where('machine_id', '=', tm.id)
          .orderBy('sequence')
          .execute();
        expect(receipts.map((r) => [r.action, Number(r.sequence)])).toEqual([
          ['BagLoaded', 1],
          ['MachineEvent', 2],
          ['BagRemoved', 3],
        ]);
        const events = await t.call('machines', 'listEvents', { machineId: tm.id }, asSupport);
        // The locker's own events (the hub adds MP_0007 when it is back online).
        const fromLocker = events.body.events.filter((e) => e.code.startsWith('EM_'));
        expect(fromLocker.map((e) => [e.code, e.level])).toEqual([['EM_0016', 'critical']]);
        const bags = await t.db.selectFrom('bags').select(['barcode', 'machine_id']).execute();
        expect(bags).toEqual([{ barcode: 'RX-200001', machine_id: null }]);
      } finally {
        cancel();
        sim.stop();
        hub.stop();
        rmSync(stateDir, { recursive: true, force: true });
      }
    });
  },
  withTestAuth,
);
