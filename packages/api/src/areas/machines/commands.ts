import { AppError, type HubAction, hubActions } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, MethodOut } from '../../context/method.ts';
import { type LockerAnswer, liveOf } from '../../live/live.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import { auditMachine } from './machine-audit.ts';
import { findMachine } from './repository.ts';

/** What each command answers (the three methods share one output): the locker's status and the new event. */
type Answer = Promise<MethodOut<'machines', 'triggerStatus'>>;

/*
 * The commands staff send a locker (docs/LOCKER-PROTOCOL.md §7): TriggerStatus, ChangeConfiguration and
 * Reset. Each goes to the process holding the locker's connection (live/live.ts askLocker) and waits for
 * its answer; a command that reached the locker is an MP_ event on the machine's timeline, saying who
 * and what the locker answered, and an audit entry. One that reached no locker changes nothing.
 */

export const lockerOffline = 'The locker is offline: it cannot be reached now';
export const lockerSilent = 'The locker did not answer within 30 seconds';

type Status = 'Accepted' | 'Rejected' | 'NotSupported';

type Command = {
  action: Exclude<HubAction, 'SetOutOfOrder'>;
  payload: Record<string, string>;
  code: 'MP_0010' | 'MP_0011' | 'MP_0012';
  auditAction: string;
  /** The timeline's words for what was asked, after the person's name. */
  asked: string;
};

export const triggerStatus = (deps: AppDeps, actor: StaffActor, input: In<'machines/triggerStatus'>): Answer =>
  sendCommand(deps, actor, input.id, {
    action: 'TriggerStatus',
    payload: { requested: input.requested },
    code: 'MP_0010',
    auditAction: 'machine.triggerStatus',
    asked: `asked the locker for a ${input.requested}`,
  });

export const changeConfiguration = (
  deps: AppDeps,
  actor: StaffActor,
  input: In<'machines/changeConfiguration'>,
): Answer =>
  sendCommand(deps, actor, input.id, {
    action: 'ChangeConfiguration',
    payload: { key: input.key, value: input.value },
    code: 'MP_0011',
    auditAction: 'machine.changeConfiguration',
    asked: `set ${input.key} to "${input.value}"`,
  });

export const resetLocker = (deps: AppDeps, actor: StaffActor, input: In<'machines/resetLocker'>): Answer =>
  sendCommand(deps, actor, input.id, {
    action: 'Reset',
    payload: { type: input.type },
    code: 'MP_0012',
    auditAction: 'machine.reset',
    asked: `restarted the locker (${input.type})`,
  });

/** The status a locker's answer carries: its result's, or NotSupported/Rejected for an error frame. */
function statusOf(action: Command['action'], answer: LockerAnswer): Status | null {
  if (answer.kind === 'answered') {
    const parsed = hubActions[action].response(answer.payload);
    return parsed instanceof Error || !('status' in parsed) ? 'Rejected' : (parsed.status as Status);
  }
  if (answer.kind === 'refused') {
    return answer.code === 'NotImplemented' || answer.code === 'NotSupported' ? 'NotSupported' : 'Rejected';
  }
  return null;
}

const statusWords: Record<Status, string> = {
  Accepted: 'accepted',
  Rejected: 'rejected',
  NotSupported: 'not supported',
};

async function sendCommand(deps: AppDeps, actor: StaffActor, machineId: string, command: Command): Answer {
  const current = await findMachine(deps.db, machineId);
  if (!current) throw new AppError('NOT_FOUND', `Machine ${machineId} not found`);
  if (current.machine.archived !== null) throw new AppError('CONFLICT', 'An archived machine has no locker to reach');
  if (!current.online) throw new AppError('CONFLICT', lockerOffline);
  const answer = await liveOf(deps).askLocker({ machineId, action: command.action, payload: command.payload });
  if (answer.kind === 'unreached') throw new AppError('CONFLICT', lockerOffline);
  const status = statusOf(command.action, answer);
  const now = deps.now();
  const recorded = await deps.db.transaction().execute(async (tx) => {
    const recorded = await recordMachineEvent(tx, deps, current, {
      code: command.code,
      message: `${actor.displayName} ${command.asked}: ${status ? statusWords[status] : 'no answer'}`,
      data: {
        userId: actor.userId,
        userDisplayName: actor.displayName,
        action: command.action,
        ...command.payload,
        status: status ?? 'NoAnswer',
      },
      created: now,
    });
    await auditMachine(tx, deps, actor, command.auditAction, current.machine, {
      ...command.payload,
      status: status ?? 'NoAnswer',
    });
    return recorded;
  });
  publishRecorded(deps, recorded);
  if (!status) throw new AppError('UNAVAILABLE', lockerSilent);
  return { status, event: recorded.event };
}
