import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';
import { businessOwned, Id, Timestamp } from '../stamps.ts';
import { alarmReasonKeys, alarmStates } from './alarm-rules.ts';

export const AlarmState = type.enumerated(...alarmStates);
export type AlarmState = typeof AlarmState.infer;
export const AlarmReason = type.enumerated(...alarmReasonKeys);
export type AlarmReason = typeof AlarmReason.infer;

/** A person who acted on an alarm, as they were named then. */
const ByPerson = type({ userId: 'string | null', displayName: 'string' });

/**
 * A critical alarm of a machine (alarm-rules.ts): who holds it (acknowledged), how it ended
 * (resolved), and how far it has escalated while nobody held it.
 */
export const Alarm = type({
  ...businessOwned,
  machineId: Id,
  machineName: 'string',
  businessName: 'string',
  code: 'string',
  name: 'string',
  level: Level,
  raisedAt: Timestamp,
  /** Times the locker raised the same code again while this alarm was unresolved. */
  repeats: 'number.integer >= 0',
  state: AlarmState,
  acknowledged: type({ at: Timestamp, by: ByPerson, reason: AlarmReason, note: 'string' }).or('null'),
  resolved: type({ at: Timestamp, by: ByPerson.or('null'), how: "'locker' | 'person'", note: 'string' }).or('null'),
  /** 0 keyholders, 1 group contacts, 2 support. */
  escalationLevel: 'number.integer >= 0',
  nextEscalationAt: Timestamp.or('null'),
  test: 'boolean',
});
export type Alarm = typeof Alarm.infer;
