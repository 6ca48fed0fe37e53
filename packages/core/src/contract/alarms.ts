import { type } from 'arktype';
import { Alarm, AlarmReason } from '../machine/alarm.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';

/** The most alarms one list answers (unresolved alarms are few; a machine's history is cut here). */
export const alarmsListMax = 200;

const Note = upTo(stringLimits.reason, type('string'));

/*
 * Critical alarms (docs/decisions/machines.md, "Alarms: acknowledged, escalated, resolved"): listed
 * with who holds them, acknowledged by a named person with a reason and a note, resolved by a person
 * (or by the locker, on the hub). A machine names the alarm's place, so access is the machine's: an
 * alarm of another machine is a 404.
 */
export const alarms = defineArea({
  list: {
    input: type({
      /** One business's; every business the caller reaches when left out. */
      'businessId?': Id,
      /** One machine's (its history too when `resolved` is true). */
      'machineId?': Id,
      /** Also the resolved ones (newest first); unresolved only when left out. */
      'resolved?': 'boolean',
    }),
    output: type({ alarms: Alarm.array() }),
    access: staff({ business: 'businessId', machine: 'machineId' }),
    summary:
      'Critical alarms of the machines the caller reaches: unresolved ones (and resolved ones when asked), newest first.',
  },
  acknowledge: {
    input: type({ machineId: Id, id: Id, reason: AlarmReason, 'note?': Note }),
    output: type({ alarm: Alarm }),
    access: staff({ machine: 'machineId' }),
    summary:
      "Holds an open alarm in the caller's name with a reason and a note: escalation stops. 409 when it is already acknowledged or resolved.",
  },
  resolve: {
    input: type({ machineId: Id, id: Id, 'note?': Note }),
    output: type({ alarm: Alarm }),
    access: staff({ machine: 'machineId' }),
    summary: "Resolves an open or acknowledged alarm in the caller's name. 409 when it is already resolved.",
  },
});
