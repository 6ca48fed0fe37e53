import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineAlerts } from '@medlocker/core';
import { drawAlarm } from './alarms.ts';
import { SimLocker } from './locker.ts';
import { DurableQueue } from './queue.ts';

/** A repeatable stand-in for Math.random. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('random alarms', () => {
  it("draw every level, each with a locker's code of that level in core's table", () => {
    const random = seeded(7);
    const drawn = Array.from({ length: 400 }, () => drawAlarm(random));
    for (const { code, level } of drawn) {
      expect(code.startsWith('EM_')).toBe(true);
      expect(level).toBe(machineAlerts[code].level);
    }
    expect(new Set(drawn.map((a) => a.level))).toEqual(new Set(['critical', 'error', 'warn', 'info']));
    expect(new Set(drawn.map((a) => a.code)).size).toBeGreaterThan(15);
  });

  it('stay within the catalogue at the very ends of the random range', () => {
    for (const value of [0, 0.999_999_999]) {
      const { code, level } = drawAlarm(() => value);
      expect(machineAlerts[code].level).toBe(level);
    }
  });

  it('are queued by the locker as a MachineEvent with the code and its level', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'locker-sim-alarms-'));
    try {
      const sim = new SimLocker({ api: 'http://127.0.0.1:9', index: 1, stateDir, random: () => 0 });
      sim.randomAlarm();
      const [queued] = DurableQueue.open(join(stateDir, 'locker-1.queue.jsonl')).pending();
      const expected = drawAlarm(() => 0);
      expect(queued?.action).toBe('MachineEvent');
      expect(queued?.payload).toMatchObject({ code: expected.code, level: expected.level });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
