import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApi } from '../../api/src/testing/api.ts';
// Test-only: the simulator against a real hub, through the api's test kit (as the cli's test harness).
import { asSupport, eventually, listen } from '../../api/src/testing/hub.ts';
import { startControl } from './control.ts';
import { SimLocker } from './locker.ts';

/** What a test gets: the machine, the simulated locker online, and its control API's steps. */
export type SimRig = {
  machineId: string;
  sim: SimLocker;
  /** One step through the control API (`{do: 'loadBag', …}`): the answer's JSON. */
  step: (body: Record<string, unknown>) => Promise<{ answers: unknown[]; error?: string }>;
  /** The same step's HTTP response, for its status. */
  post: (body: Record<string, unknown>) => Promise<Response>;
};

/**
 * A test machine of `businessId` (seeded by the caller) with a simulated locker online against a real
 * hub and its control API on a free port; `stateDir` keeps the locker's state in a temporary folder.
 * Everything is stopped (and the folder removed) after `body`, whatever it threw.
 */
export async function withSimLocker(
  t: TestApi,
  body: (rig: SimRig) => Promise<void>,
  options: { businessId?: string; name?: string; numberOfSlots?: number; stateDir?: boolean } = {},
): Promise<void> {
  const { businessId = 'b1', name = 'Sim', numberOfSlots = 24 } = options;
  const created = await t.call('testMachines', 'create', { businessId, name, numberOfSlots }, asSupport);
  const tm = created.body.testMachine;
  const stateDir = options.stateDir ? mkdtempSync(join(tmpdir(), 'locker-sim-')) : undefined;
  const hub = listen(t);
  const sim = new SimLocker({
    api: hub.http,
    index: 1,
    ...(stateDir ? { stateDir } : {}),
    credentials: { machineId: tm.id, ...tm.credentials },
    readingEverySeconds: 3600,
  });
  const control = startControl([sim], 0);
  const post = (step: Record<string, unknown>) =>
    fetch(`http://127.0.0.1:${control.port}/lockers/1`, { method: 'POST', body: JSON.stringify(step) });
  try {
    await sim.start();
    await eventually(() => sim.status === 'online');
    await body({ machineId: tm.id, sim, post, step: async (s) => (await post(s)).json() as never });
  } finally {
    control.stop(true);
    sim.stop();
    hub.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}
