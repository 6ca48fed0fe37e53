#!/usr/bin/env bun
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { startControl } from './control.ts';
import { SimLocker } from './locker.ts';
import type { Tokens } from './pairing.ts';
import { loadScenario, runScenario } from './scenario.ts';
import { StateFile } from './state.ts';

const int = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
};

const program = new Command('locker-sim')
  .description('Simulated MedLocker lockers speaking the locker protocol (docs/LOCKER-PROTOCOL.md)')
  .option('--api <url>', 'the MedLocker server', 'http://localhost:3000')
  .option('--count <n>', 'how many lockers', int, 1)
  .option('--test-machine', 'create test machines (paired at once) instead of pairing with a user code')
  .option('--business <id>', 'business of the test machines (with --test-machine)')
  .option('--token <token>', 'a support session token for creating test machines (or MEDLOCKER_TOKEN)')
  .option('--scenario <file>', 'a scenario file to play (see packages/locker-sim/scenarios)')
  .option('--state-dir <dir>', 'where each locker keeps its tokens and offline queue', '.locker-sim')
  .option('--control-port <port>', 'local control API on 127.0.0.1 (0: none)', int, 7070)
  .option('--reading-interval <seconds>', 'seconds between temperature readings', int, 10)
  .option('--batch <seconds>', 'seconds between TemperatureReadings messages', int, 60)
  .option('--random-alarms <perHour>', 'random alarms per locker per hour', int, 0)
  .option('--plain', 'plain log lines instead of the Ink screen (automatic when stdout is not a TTY)');

type Options = {
  api: string;
  count: number;
  testMachine?: boolean;
  business?: string;
  token?: string;
  scenario?: string;
  stateDir: string;
  controlPort: number;
  readingInterval: number;
  batch: number;
  randomAlarms: number;
  plain?: boolean;
};

/** Creates a test machine over the RPC API, unless this locker's state already has tokens. */
async function testMachineCredentials(o: Options, index: number): Promise<Tokens | undefined> {
  const saved = new StateFile(join(o.stateDir, `locker-${index}.json`)).value;
  if (saved.accessToken) return undefined;
  const token = o.token ?? process.env.MEDLOCKER_TOKEN;
  if (!o.business || !token) throw new Error('--test-machine needs --business and --token (or MEDLOCKER_TOKEN)');
  let res: Response;
  try {
    res = await fetch(`${o.api}/api/testMachines/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        businessId: o.business,
        name: `Sim locker ${index} ${crypto.randomUUID().slice(0, 6)}`,
        numberOfSlots: 24,
      }),
    });
  } catch (error) {
    // Setting up test machines is a one-off step: say plainly that the API is not there, and stop.
    throw new Error(`creating a test machine: cannot reach ${o.api} (${(error as Error).message})`);
  }
  const body = (await res.json().catch(() => ({}))) as {
    testMachine?: {
      id: string;
      credentials: { accessToken: string; accessTokenExpires: number; refreshToken: string };
    };
    error?: { message: string };
  };
  if (!res.ok || !body.testMachine) throw new Error(`creating a test machine: ${body.error?.message ?? res.status}`);
  return { machineId: body.testMachine.id, ...body.testMachine.credentials };
}

async function main() {
  const o = program.parse().opts<Options>();
  o.api = o.api.replace(/\/$/, '');
  o.stateDir = resolve(o.stateDir);
  const plain = o.plain || !process.stdout.isTTY;
  const log = plain ? (line: string) => console.log(`${new Date().toISOString()} ${line}`) : () => {};
  const lockers: SimLocker[] = [];
  for (let index = 1; index <= o.count; index++) {
    const credentials = o.testMachine ? await testMachineCredentials(o, index) : undefined;
    lockers.push(
      new SimLocker({
        api: o.api,
        index,
        stateDir: o.stateDir,
        ...(credentials ? { credentials } : {}),
        readingEverySeconds: o.readingInterval,
        batchEverySeconds: o.batch,
        randomAlarmsPerHour: o.randomAlarms,
        log,
      }),
    );
  }
  const control = o.controlPort > 0 ? startControl(lockers, o.controlPort) : undefined;
  const footer = `${o.api} · state in ${o.stateDir}${
    control ? ` · control: curl -XPOST 127.0.0.1:${control.port}/lockers/1 -d '{"do":"alarm","code":"EM_0016"}'` : ''
  } · Ctrl-C to stop`;
  if (plain) console.log(footer);
  const screen = plain ? undefined : (await import('./ui.tsx')).renderScreen(lockers, footer);
  const cancel = o.scenario ? runScenario(loadScenario(o.scenario), lockers, log) : () => {};
  for (const locker of lockers) void locker.start();
  const stop = () => {
    cancel();
    for (const locker of lockers) locker.stop();
    control?.stop(true);
    screen?.unmount();
    setTimeout(() => process.exit(0), 200);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
