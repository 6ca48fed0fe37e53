import { readFileSync } from 'node:fs';
import type { SimLocker } from './locker.ts';
import type { TemperatureMode } from './temperature.ts';

const actions = [
  'alarm',
  'clearAlarm',
  'temperature',
  'networkDrop',
  'networkRestore',
  'powerFailure',
  'powerRestore',
  'loadBag',
  'removeBag',
  'enterPin',
  'collectBag',
  'scanQrCode',
] as const;

/** One thing to do to some lockers (1-based numbers, or all of them), `at` seconds from the start. */
export type ScenarioStep = {
  at: number;
  lockers?: number[] | 'all';
  do: (typeof actions)[number];
  code?: string;
  level?: 'critical' | 'error' | 'warn' | 'info';
  message?: string;
  mode?: TemperatureMode;
  seconds?: number;
  barcode?: string;
  location?: string;
  /** enterPin: the digits a patient types. */
  pin?: string;
  /** scanQrCode: the text of the bag's QR code, as a scanner reads it. */
  qrCode?: string;
};

/**
 * A scenario file:
 *
 * ```json
 * { "name": "Power failure then recovery",
 *   "steps": [ { "at": 30, "do": "powerFailure", "seconds": 120 } ] }
 * ```
 */
export type Scenario = { name: string; description?: string; steps: ScenarioStep[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks one step (from a file or the control API); returns the problem as text when it is not one. */
export function parseStep(value: unknown, at = 0): ScenarioStep | string {
  if (!isObject(value)) return 'a step is an object';
  const step = { at, ...value } as Record<string, unknown>;
  if (typeof step.at !== 'number' || step.at < 0) return '"at" must be seconds from the start';
  if (!actions.includes(step.do as ScenarioStep['do'])) return `"do" must be one of ${actions.join(', ')}`;
  if (step.lockers !== undefined && step.lockers !== 'all') {
    if (!Array.isArray(step.lockers) || !step.lockers.every((n) => Number.isInteger(n) && n >= 1)) {
      return '"lockers" must be "all" or locker numbers from 1';
    }
  }
  if (step.mode !== undefined && !['steady', 'drifting', 'excursion'].includes(String(step.mode))) {
    return '"mode" must be steady, drifting or excursion';
  }
  if (step.level !== undefined && !['critical', 'error', 'warn', 'info'].includes(String(step.level))) {
    return '"level" must be critical, error, warn or info';
  }
  if (step.seconds !== undefined && (typeof step.seconds !== 'number' || step.seconds < 0)) {
    return '"seconds" must be a number of seconds';
  }
  for (const key of ['code', 'message', 'barcode', 'location', 'qrCode'] as const) {
    if (step[key] !== undefined && typeof step[key] !== 'string') return `"${key}" must be text`;
  }
  if (step.do === 'enterPin' && (typeof step.pin !== 'string' || !/^\d{4,12}$/.test(step.pin))) {
    return '"pin" must be 4 to 12 digits';
  }
  return step as ScenarioStep;
}

export function loadScenario(path: string): Scenario {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isObject(value) || typeof value.name !== 'string' || !Array.isArray(value.steps)) {
    throw new Error(`${path}: a scenario is { "name": …, "steps": [ … ] }`);
  }
  const steps = value.steps.map((s, i) => {
    const step = parseStep(s, -1);
    if (typeof step === 'string') throw new Error(`${path}: step ${i + 1}: ${step}`);
    return step;
  });
  return {
    name: value.name,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    steps,
  };
}

/** Does one step to one locker; enterPin and collectBag answer what the locker's screen would show. */
export function applyStep(locker: SimLocker, step: ScenarioStep): Promise<unknown> | undefined {
  switch (step.do) {
    case 'alarm':
      locker.alarm(step.code ?? 'EM_0016', step.level, step.message);
      break;
    case 'clearAlarm':
      locker.clearAlarm(step.code ?? 'EM_0016');
      break;
    case 'temperature':
      locker.setTemperature(step.mode ?? 'steady');
      break;
    case 'networkDrop':
      locker.networkDrop(step.seconds ?? 300);
      break;
    case 'networkRestore':
      locker.networkRestore();
      break;
    case 'powerFailure':
      locker.powerFailure(step.seconds ?? 120);
      break;
    case 'powerRestore':
      locker.powerRestore();
      break;
    case 'loadBag':
      locker.loadBag(step.barcode, step.location);
      break;
    case 'removeBag':
      locker.removeBag(step.barcode);
      break;
    case 'enterPin':
      return locker.enterPin(step.pin ?? '');
    case 'collectBag':
      return Promise.resolve({ collected: locker.collectBag(step.location) });
    case 'scanQrCode':
      return Promise.resolve({ loaded: locker.scanQrCode(step.qrCode ?? '', step.location) });
  }
  return undefined;
}

/** Schedules every step; returns a function that cancels what has not run yet. */
export function runScenario(scenario: Scenario, lockers: SimLocker[], log: (line: string) => void): () => void {
  const timers = scenario.steps.map((step) =>
    setTimeout(() => {
      const targets =
        step.lockers === undefined || step.lockers === 'all' ? lockers : step.lockers.map((n) => lockers[n - 1]);
      log(`scenario "${scenario.name}": ${step.do} at ${step.at}s`);
      for (const locker of targets) if (locker) applyStep(locker, step);
    }, step.at * 1000),
  );
  return () => {
    for (const t of timers) clearTimeout(t);
  };
}
