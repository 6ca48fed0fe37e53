import { describe, expect, it } from 'bun:test';
import { ACTIVE_ALARM_MS, isActiveAlarm, isAlarm } from './fleet.ts';

describe('active alarms', () => {
  it('counts an event with an alarm message template as an alarm, even a warning', () => {
    expect(isAlarm({ code: 'EM_0001', level: 'warn' })).toBe(true);
    expect(isAlarm({ code: 'MP_0001', level: 'info' })).toBe(true);
  });

  it('counts any critical or error event as an alarm, and no other routine one', () => {
    expect(isAlarm({ code: 'EM_0013', level: 'critical' })).toBe(true);
    expect(isAlarm({ code: 'EM_0008', level: 'error' })).toBe(true);
    expect(isAlarm({ code: 'EM_0022', level: 'warn' })).toBe(false);
    expect(isAlarm({ code: 'EM_0017', level: 'info' })).toBe(false);
  });

  it('keeps an alarm active for a day after it was raised, not a millisecond longer', () => {
    const now = Date.UTC(2026, 10, 2, 9, 30);
    const alarm = { code: 'EM_0003', level: 'critical' } as const;
    expect(isActiveAlarm({ ...alarm, created: now - ACTIVE_ALARM_MS }, now)).toBe(true);
    expect(isActiveAlarm({ ...alarm, created: now - ACTIVE_ALARM_MS - 1 }, now)).toBe(false);
    expect(isActiveAlarm({ code: 'EM_0017', level: 'info', created: now }, now)).toBe(false);
  });
});
