import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';
import { FleetMachine } from '../machine/fleet.ts';
import { Machine, MachineStatus } from '../machine/machine.ts';
import { MachineEvent } from '../machine/machine-event.ts';
import { MachineInput } from '../machine/machine-input.ts';
import { text } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byId } from './method-builders.ts';
import { Paging } from './paging.ts';

/** Pages of machines, events and statuses are 25 long; `nextToken` is an opaque keyset cursor. */
export const machinesPageSize = 25;

/**
 * The dashboard's fleet comes in pages of 500 machines, each page with the active alarms of its
 * machines, at most 25 (the newest) a machine so one chattering locker cannot swell the answer.
 */
export const fleetPageSize = 500;
export const fleetAlarmsPerMachine = 25;

/** The fields of the three commands staff send a locker (docs/LOCKER-PROTOCOL.md §7). */
const LockerCommandInput = {
  requested: "'StatusNotification' | 'Heartbeat' | 'BootNotification'",
  key: upTo(stringLimits.lockerConfigKey, type('string > 0')),
  value: upTo(stringLimits.lockerConfigValue),
  type: "'Soft' | 'Hard'",
} as const;

/** What a locker answered a command, and the event (MP_0010 to MP_0012) on its timeline. */
const LockerCommandOutput = type({
  status: "'Accepted' | 'Rejected' | 'NotSupported'",
  event: MachineEvent,
});

/** What staff fill in to add or edit a machine or a test machine: core's {@link MachineInput}. */
export const MachineForm = MachineInput;

export const machines = defineArea({
  createMachine: {
    input: MachineForm.and({ businessId: Id }),
    output: type({ machine: Machine }),
    access: supportOnly,
    summary: 'Adds a machine to a business; its name must be unique in the business, whatever the case (409).',
  },
  getMachine: byId({
    output: type({
      machine: Machine,
      online: 'boolean',
      lastSeen: 'number | null',
      paired: 'boolean',
      /** A QA test machine (testMachines.create), not one of the business's real lockers. */
      test: 'boolean',
      /** How many slots its locker last reported (StatusNotification's slotsTotal); null until it says. */
      reportedSlots: 'number | null',
    }),
    access: staff({ machine: 'id' }),
    summary:
      'A machine with its temperature status (3-hour average and the readings of those 3 hours, at most 1,440: beyond that the lowest and highest of each 15 seconds), connection state, whether it is a test machine, and the slots its locker reports.',
  }),
  listMachines: {
    input: type({ businessId: Id, 'archived?': 'boolean', 'filter?': text({ max: 200 }), ...Paging }),
    output: type({
      machines: Machine.and({ online: 'boolean', lastSeen: 'number | null' }).array(),
      nextToken: 'string | null',
    }),
    access: staff({ business: 'businessId' }),
    summary: "A business's machines by name: active or archived, case-insensitive name prefix, 25 a page.",
  },
  updateMachine: {
    input: MachineForm.and({ id: Id }),
    output: type({ machine: Machine }),
    access: supportOnly,
    summary: 'Changes name, slots or payments of a machine that is not archived.',
  },
  toggleArchive: byId({
    output: type({ machine: Machine }),
    access: supportOnly,
    summary: 'Archives (revoking its credentials, MP_0004) or unarchives (MP_0005) a machine.',
  }),
  toggleOutOfOrderStatus: byId({
    output: type({ machine: Machine, lockerNotified: 'boolean' }),
    access: staff({ machine: 'id' }),
    summary: 'Switches a machine out of order (MP_0003) or back in order (MP_0002) and tells the locker.',
  }),
  listMachineStatus: {
    input: type({ machineId: Id, ...Paging }),
    output: type({ statuses: MachineStatus.array(), nextToken: 'string | null' }),
    access: staff({ machine: 'machineId' }),
    summary: 'Status reports of a machine, newest first.',
  },
  listEvents: {
    input: type({ machineId: Id, 'level?': Level, 'code?': text({ max: 16 }), ...Paging }),
    output: type({ events: MachineEvent.array(), nextToken: 'string | null' }),
    access: staff({ machine: 'machineId' }),
    summary: 'Events of a machine (EM_ from the locker, MP_ from the product), newest first.',
  },
  fleetSummary: {
    input: type({ ...Paging }),
    output: type({ machines: FleetMachine.array(), alarms: MachineEvent.array(), nextToken: 'string | null' }),
    access: supportOnly,
    summary:
      "The dashboard's fleet, 500 machines a page (active machines of active businesses, by id) with their active alarms: events of the last 24 hours with an alarm message template or critical or error, newest first, 25 a machine.",
  },
  triggerStatus: {
    input: type({ id: Id, requested: LockerCommandInput.requested }),
    output: LockerCommandOutput,
    access: staff({ machine: 'id' }, true),
    summary:
      'Asks the locker to send a StatusNotification, Heartbeat or BootNotification now (TriggerStatus, MP_0010): its answer, or 409 when offline or archived, 503 without an answer in 30 s.',
  },
  changeConfiguration: {
    input: type({ id: Id, key: LockerCommandInput.key, value: LockerCommandInput.value }),
    output: LockerCommandOutput,
    access: supportOnly,
    summary:
      'Changes one setting of the locker (ChangeConfiguration, MP_0011): Accepted, Rejected or NotSupported as the locker answers; 409 when offline or archived, 503 without an answer in 30 s.',
  },
  resetLocker: {
    input: type({ id: Id, type: LockerCommandInput.type }),
    output: LockerCommandOutput,
    access: supportOnly,
    summary:
      'Restarts the locker, Soft or Hard (Reset, MP_0012): its answer; 409 when offline or archived, 503 without an answer in 30 s.',
  },
  isMachineAvailable: byId({
    output: type({
      available: 'boolean',
      /** Why not, when not: archived, outOfOrder or offline. */
      reason: "'archived' | 'outOfOrder' | 'offline' | null",
    }),
    access: staff({ machine: 'id' }),
    summary: 'Whether a machine can take orders now: not archived, in order and online.',
  }),
});
