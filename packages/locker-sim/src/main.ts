#!/usr/bin/env bun
import { join, resolve } from 'node:path';
import { Command, type CommanderError, InvalidArgumentError } from 'commander';
import { version } from '../package.json' with { type: 'json' };
import { actingToken, defaultApi } from './api-address.ts';
import { formatTable, runConformance } from './conformance/index.ts';
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

/** Exit codes: 0 stopped when asked (or every conformance check passed), 1 failed, 2 wrong command line. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

const exitCodesHelp = `
Exit codes:
  ${exitCodes.ok}  stopped when asked; conformance: every check passed
  ${exitCodes.failed}  could not run (the server unreachable, a test machine refused); conformance: a check failed
  ${exitCodes.usage}  wrong command line
`;

/** Help and version end well; any other complaint of commander's is a wrong command line. */
const usageExit = (error: CommanderError): never =>
  process.exit(
    ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)
      ? exitCodes.ok
      : exitCodes.usage,
  );

const program = new Command('locker-sim')
  .description('Simulated MedLocker lockers speaking the locker protocol (docs/LOCKER-PROTOCOL.md)')
  .option('--api <url>', 'the MedLocker server (default: MEDLOCKER_API, else http://localhost:3000)', defaultApi())
  .option('--count <n>', 'how many lockers', int, 1)
  .option('--test-machine', 'create test machines (paired at once) instead of pairing with a user code')
  .option('--business <id>', 'business of the test machines (with --test-machine)')
  .option(
    '--token <token>',
    'a support session token for creating test machines (default: MEDLOCKER_TOKEN, else the session `medlocker login` saved)',
  )
  .option('--scenario <file>', 'a scenario file to play (see packages/locker-sim/scenarios)')
  .option('--state-dir <dir>', 'where each locker keeps its tokens and offline queue', '.locker-sim')
  .option('--control-port <port>', 'local control API on 127.0.0.1 (0: none)', int, 7070)
  .option('--reading-interval <seconds>', 'seconds between temperature readings', int, 10)
  .option('--batch <seconds>', 'seconds between TemperatureReadings messages', int, 60)
  .option('--random-alarms <perHour>', 'random alarms per locker per hour', int, 0)
  .option('--plain', 'plain log lines instead of the Ink screen (automatic when stdout is not a TTY)')
  .version(version, '-V, --version', 'print the version')
  .addHelpText('after', `\nRun \`locker-sim conformance --help\` for the protocol conformance run.\n${exitCodesHelp}`)
  .exitOverride(usageExit);

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
  const token = await actingToken(o.api, o.token);
  if (!o.business || !token) {
    throw new Error(
      '--test-machine needs --business, and a session: run `npm run medlocker -- login`, or give --token',
    );
  }
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

/** `locker-sim conformance`: every documented exchange against a server, a pass/fail table, exit 1 on a failure. */
async function conformance(argv: string[]) {
  const o = new Command('locker-sim conformance')
    .description('Runs every exchange of docs/LOCKER-PROTOCOL.md against a server and prints a pass/fail table')
    .option('--url <url>', 'the MedLocker server (default: MEDLOCKER_API, else http://localhost:3000)', defaultApi())
    .option(
      '--token <token>',
      'a support session token (default: MEDLOCKER_TOKEN, else the session `medlocker login` saved)',
    )
    .option('--email <email>', 'a support user to sign in as, instead of --token (or MEDLOCKER_EMAIL)')
    .option('--password <password>', 'their password (or MEDLOCKER_PASSWORD)')
    .option('--business <id>', 'the business the conformance machine is created in (default: the first active one)')
    .option('--json', 'print the checks as JSON instead of a table')
    .option('--verbose', 'print each check as it runs')
    .addHelpText('after', exitCodesHelp)
    .exitOverride(usageExit)
    .parse(argv, { from: 'user' })
    .opts<{
      url: string;
      token?: string;
      email?: string;
      password?: string;
      business?: string;
      json?: boolean;
      verbose?: boolean;
    }>();
  const email = o.email ?? process.env.MEDLOCKER_EMAIL;
  const password = o.password ?? process.env.MEDLOCKER_PASSWORD;
  // Email and password when given; else a token (--token, MEDLOCKER_TOKEN or the CLI's saved session).
  const token = email && password ? o.token : await actingToken(o.url, o.token);
  const checks = await runConformance({
    url: o.url,
    ...(token ? { token } : {}),
    ...(email ? { email } : {}),
    ...(password ? { password } : {}),
    ...(o.business ? { business: o.business } : {}),
    ...(o.verbose ? { log: (line: string) => console.error(line) } : {}),
  });
  console.log(
    o.json ? JSON.stringify({ url: o.url, passed: checks.every((c) => c.ok), checks }, null, 2) : formatTable(checks),
  );
  process.exit(checks.every((c) => c.ok) ? exitCodes.ok : exitCodes.failed);
}

async function main() {
  if (process.argv[2] === 'conformance') return conformance(process.argv.slice(3));
  const o = program.parse().opts<Options>();
  o.api = o.api.replace(/\/$/, '');
  o.stateDir = resolve(o.stateDir);
  const plain = o.plain || !process.stdout.isTTY;
  const log = plain ? (line: string) => console.log(`${new Date().toISOString()} ${line}`) : () => {};
  const lockers: SimLocker[] = [];
  for (let index = 1; index <= o.count; index++) {
    const credentials = o.testMachine ? await testMachineCredentials(o, index) : undefined;
    // Where support finds it: the business's machines list, Test machines on (docs/decisions/machines.md).
    if (credentials && o.business) {
      const page = `${o.api}/businesses/${encodeURIComponent(o.business)}/machines/${encodeURIComponent(credentials.machineId)}`;
      console.error(`test machine ${index}: ${page}`);
    }
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
    setTimeout(() => process.exit(exitCodes.ok), 200);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(exitCodes.failed);
});
