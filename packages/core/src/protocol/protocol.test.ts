import { describe, expect, it } from 'bun:test';
import {
  averageTemperature,
  checkLockerCall,
  dataChangingActions,
  formatUserCode,
  generateUserCode,
  isExcursion,
  normaliseUserCode,
  parseFrame,
  reconnectDelayMs,
  TEMPERATURE_WINDOW_MS,
  USER_CODE_ALPHABET,
} from './index.ts';

describe('frames', () => {
  it('reads a call, a result and an error', () => {
    expect(parseFrame('[2,"a1","Heartbeat",{}]')).toEqual({ ok: true, frame: [2, 'a1', 'Heartbeat', {}] });
    expect(parseFrame([3, 'a1', { currentTime: 1 }])).toEqual({ ok: true, frame: [3, 'a1', { currentTime: 1 }] });
    expect(parseFrame([4, 'a1', 'InternalError', 'oops', {}])).toMatchObject({ ok: true });
  });

  it('answers text that is not JSON with a FormationViolation for message id -1', () => {
    const parsed = parseFrame('{nope');
    expect(parsed).toEqual({ ok: false, error: [4, '-1', 'FormationViolation', 'Frame is not valid JSON', {}] });
  });

  it('keeps the message id when only the payload is wrong', () => {
    const parsed = parseFrame([2, 'x9', 'Heartbeat', 'not an object']);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.slice(0, 3)).toEqual([4, 'x9', 'FormationViolation']);
  });

  it('refuses the NUL character anywhere in a frame, with the message id when it is readable', () => {
    const nul = 'Text cannot contain the NUL character (\\u0000)';
    expect(parseFrame('[2,"a1","MachineEvent",{"message":"door\\u0000open"}]')).toEqual({
      ok: false,
      error: [4, 'a1', 'FormationViolation', nul, {}],
    });
    expect(parseFrame([2, 'a2', 'StatusNotification', { observations: [{ 'k\u0000': 1 }] }])).toEqual({
      ok: false,
      error: [4, 'a2', 'FormationViolation', nul, {}],
    });
    expect(parseFrame([3, 'a\u00003', {}])).toEqual({ ok: false, error: [4, '-1', 'FormationViolation', nul, {}] });
    expect(parseFrame('[2,"a4","MachineEvent",{"message":"door\\\\u0000 is text"}]').ok).toBe(true);
  });

  it('refuses an unpaired surrogate or nesting over 32 levels, which no frame needs and the hub cannot store', () => {
    const lone = 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)';
    expect(parseFrame('[2,"a1","StatusNotification",{"observations":{"door":"\\ud800"}}]')).toEqual({
      ok: false,
      error: [4, 'a1', 'FormationViolation', lone, {}],
    });
    expect(parseFrame('[2,"a\\udc00","Heartbeat",{}]')).toEqual({
      ok: false,
      error: [4, '-1', 'FormationViolation', lone, {}],
    });
    expect(parseFrame('[2,"a2","Heartbeat",{"s":"\\ud83d\\ude00"}]').ok).toBe(true);
    const deep = `[2,"a3","StatusNotification",{"observations":{"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}}]`;
    expect(parseFrame(deep)).toEqual({
      ok: false,
      error: [4, 'a3', 'FormationViolation', 'JSON cannot be nested more than 32 levels deep', {}],
    });
  });

  it('refuses unknown message types, objects and over-long ids', () => {
    expect(parseFrame([7, 'a', 'b', {}]).ok).toBe(false);
    expect(parseFrame({ id: 1 }).ok).toBe(false);
    expect(parseFrame([2, 'x'.repeat(37), 'Heartbeat', {}]).ok).toBe(false);
  });

  it('checks payloads by action', () => {
    const unknown = checkLockerCall('1', 'Teleport', {});
    expect(unknown.ok ? [] : unknown.error.slice(0, 3)).toEqual([4, '1', 'NotImplemented']);
    const bad = checkLockerCall('1', 'MachineEvent', { eventId: 'e', seq: 0, created: 1, code: 'EM_0001' });
    expect(bad.ok ? [] : bad.error.slice(0, 3)).toEqual([4, '1', 'TypeConstraintViolation']);
    const good = checkLockerCall('1', 'MachineEvent', { eventId: 'e', seq: 1, created: 1, code: 'EM_0001' });
    expect(good.ok).toBe(true);
  });

  it('refuses times and sequence numbers the hub cannot store exactly, as TypeConstraintViolation', () => {
    const event = { eventId: 'e', seq: 1, created: 1, code: 'EM_0001' };
    for (const bad of [{ seq: 1e308 }, { seq: 2 ** 53 }, { created: 1e308 }, { created: 8.64e15 + 1 }]) {
      const checked = checkLockerCall('1', 'MachineEvent', { ...event, ...bad });
      expect(checked.ok ? [] : checked.error.slice(0, 3)).toEqual([4, '1', 'TypeConstraintViolation']);
    }
    const readings = { eventId: 'r', seq: 2, created: 1, readings: [{ created: 1e308, value: 20 }] };
    expect(checkLockerCall('1', 'TemperatureReadings', readings).ok).toBe(false);
    expect(checkLockerCall('1', 'StatusNotification', { observations: {}, created: 1e308 }).ok).toBe(false);
    expect(checkLockerCall('1', 'MachineEvent', { ...event, seq: 2 ** 53 - 1, created: 8.64e15 }).ok).toBe(true);
  });

  it('marks the data-changing actions, which carry eventId and seq', () => {
    expect(dataChangingActions.sort()).toEqual([
      'BagCollected',
      'BagLoaded',
      'BagRemoved',
      'MachineEvent',
      'TemperatureReadings',
    ]);
  });
});

describe('pairing codes', () => {
  it('makes 8-letter codes from an alphabet without vowels or look-alikes', () => {
    const code = generateUserCode(Math.random);
    expect(code).toHaveLength(8);
    for (const c of code) expect(USER_CODE_ALPHABET).toContain(c);
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOU0-9LS]/);
  });

  it('accepts what staff type in any case, with a hyphen or spaces', () => {
    const code = generateUserCode(() => 0.5);
    expect(normaliseUserCode(formatUserCode(code).toLowerCase())).toBe(code);
    expect(normaliseUserCode(' mmmm mmmm ')).toBe('MMMMMMMM');
    expect(normaliseUserCode('ABCD-EFGH')).toBeNull();
    expect(normaliseUserCode('MMMM')).toBeNull();
  });
});

describe('reconnect backoff', () => {
  it('waits a random time up to a doubling ceiling, capped at five minutes', () => {
    expect(reconnectDelayMs(0, () => 0.999)).toBeLessThan(1000);
    expect(reconnectDelayMs(3, () => 0.999)).toBe(7992);
    expect(reconnectDelayMs(40, () => 0.999)).toBe(299_700);
    expect(reconnectDelayMs(5, () => 0)).toBe(0);
  });
});

describe('temperature', () => {
  it('averages the readings of the last 3 hours only', () => {
    const now = 10 * TEMPERATURE_WINDOW_MS;
    const readings = [
      { created: now - TEMPERATURE_WINDOW_MS - 1, value: 100 },
      { created: now - 1000, value: 20 },
      { created: now, value: 30 },
    ];
    expect(averageTemperature(readings, now)).toBe(25);
    expect(averageTemperature([], now)).toBeNull();
  });

  it('calls an average outside 15–25 °C an excursion', () => {
    expect(isExcursion(25)).toBe(false);
    expect(isExcursion(25.1)).toBe(true);
    expect(isExcursion(14.9)).toBe(true);
    expect(isExcursion(15)).toBe(false);
    expect(isExcursion(18)).toBe(false);
  });
});
