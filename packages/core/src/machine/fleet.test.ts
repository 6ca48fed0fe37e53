import { describe, expect, it } from 'bun:test';
import { ACTIVE_ALARM_MS, isActiveAlarm, isAlarm, isResolvedAlarmEvent } from './fleet-rules.ts';

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

  it('clears a temperature excursion alarm when its machine is back in the band, and only that alarm', () => {
    const now = Date.UTC(2026, 10, 2, 9, 30);
    const started = now - 60_000;
    const excursion = { code: 'MP_0001', level: 'error', created: started } as const;
    const hot = { temperatureStatus: { average: 27.4, lastExcursionAt: started } };
    const back = { temperatureStatus: { average: 21.0, lastExcursionAt: started } };
    expect(isActiveAlarm(excursion, now, hot)).toBe(true);
    expect(isActiveAlarm(excursion, now, back)).toBe(false);
    // An earlier excursion's alarm is not the current one's.
    expect(isActiveAlarm({ ...excursion, created: started - 1 }, now, hot)).toBe(false);
    // Too cold is out of the band too; no readings at all is not an excursion.
    expect(isActiveAlarm(excursion, now, { temperatureStatus: { average: 12, lastExcursionAt: started } })).toBe(true);
    expect(isActiveAlarm(excursion, now, { temperatureStatus: null })).toBe(false);
    // Other alarms have no end signal: the machine's temperature does not clear them.
    expect(isActiveAlarm({ code: 'EM_0003', level: 'critical', created: started }, now, back)).toBe(true);
    // A caller that does not know the machine keeps the excursion.
    expect(isActiveAlarm(excursion, now)).toBe(true);
  });

  it('ends an alarm event once its critical alarm was resolved, but not a later one of the same code', () => {
    const resolvedAt = Date.UTC(2026, 10, 2, 9, 30);
    const resolutions = [{ machineId: 'm1', code: 'EM_0003', resolvedAt }];
    const event = { machineId: 'm1', code: 'EM_0003', created: resolvedAt - 60_000 };
    expect(isResolvedAlarmEvent(event, resolutions)).toBe(true);
    expect(isResolvedAlarmEvent({ ...event, created: resolvedAt + 1 }, resolutions)).toBe(false);
    expect(isResolvedAlarmEvent({ ...event, machineId: 'm2' }, resolutions)).toBe(false);
    expect(isResolvedAlarmEvent({ ...event, code: 'EM_0009' }, resolutions)).toBe(false);
  });
});
