import {
  type Alarm,
  AppError,
  alarmEscalationLevels,
  alarmReasons,
  alarmsListMax,
  lastEscalationLevel,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { type Actor, type StaffActor, systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { type AlarmEventType, emitAlarmEvent } from '../../delivery/webhooks/emit.ts';
import { tellAlarm } from './alarm-delivery.ts';
import { escalationMinutes, queueEscalation } from './alarm-raise.ts';
import {
  acknowledgeAlarmRow,
  escalationRecipients,
  findAlarm,
  listAlarmRows,
  resolveAlarmRow,
  setEscalation,
  unresolvedAlarmIds,
} from './alarms-repository.ts';
import { publishRecorded, type RecordedEvent, recordMachineEvent } from './events.ts';
import { type Db, findMachine } from './repository.ts';

/*
 * Critical alarms after they are raised (alarm-raise.ts opens them): acknowledged by a named person
 * with a reason and a note, escalated while nobody holds them, resolved by the locker or a person.
 * Each step is an event on the machine's timeline (MP_0013 to MP_0015), an audit entry and a webhook.
 */

const notFound = (id: string) => new AppError('NOT_FOUND', `Alarm ${id} not found`);

export const listAlarms: Service<'alarms/list'> = async (deps, actor, input) => {
  const reach = actor.kind === 'support' ? 'all' : [...actor.businesses.keys()];
  const businesses = input.businessId ? [input.businessId] : reach;
  const alarms = await listAlarmRows(deps.db, {
    businesses,
    ...(input.machineId ? { machineId: input.machineId } : {}),
    resolved: input.resolved ?? false,
    limit: alarmsListMax,
  });
  return { alarms };
};

type Step = { code: 'MP_0013' | 'MP_0014' | 'MP_0015'; message: string; audit: string; webhook: AlarmEventType };

/** Records a step of an alarm (after its row changed): timeline event, audit entry and webhook. */
async function recordStep(tx: Db, deps: AppDeps, actor: Actor, alarmId: string, step: Step, extra = {}) {
  const alarm = await findAlarm(tx, alarmId);
  const machine = alarm && (await findMachine(tx, alarm.machineId));
  if (!alarm || !machine) throw notFound(alarmId);
  const recorded = await recordMachineEvent(tx, deps, machine, {
    code: step.code,
    message: step.message,
    data: { alarmId, code: alarm.code, state: alarm.state, ...extra },
    created: deps.now(),
  });
  await audit(tx, deps, actor, {
    action: step.audit,
    entityType: 'machine',
    entityId: alarm.machineId,
    businessId: alarm.businessId,
    details: { alarmId, code: alarm.code, ...extra },
  });
  await emitAlarmEvent(tx, deps, step.webhook, alarm);
  return { alarm, recorded };
}

/** The alarm of this machine, locked, or 404. */
async function lockedAlarm(tx: Db, machineId: string, id: string): Promise<Alarm> {
  const alarm = await findAlarm(tx, id, true);
  if (!alarm || alarm.machineId !== machineId) throw notFound(id);
  return alarm;
}

const label = (a: Alarm) => `${a.code} ${a.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;

/**
 * A person's step on an alarm of this machine: `take` checks the locked alarm, changes its row and
 * says what to record; recorded in the same transaction, then published.
 */
async function personStep(
  deps: AppDeps,
  actor: StaffActor,
  target: { machineId: string; id: string },
  take: (tx: Db, current: Alarm) => Promise<{ step: Step; extra: Record<string, unknown> }>,
): Promise<{ alarm: Alarm }> {
  const { alarm, recorded } = await deps.db.transaction().execute(async (tx) => {
    const current = await lockedAlarm(tx, target.machineId, target.id);
    const { step, extra } = await take(tx, current);
    return recordStep(tx, deps, actor, current.id, step, extra);
  });
  publishRecorded(deps, recorded);
  return { alarm };
}

export const acknowledgeAlarm: Service<'alarms/acknowledge'> = (deps, actor, input) => {
  const note = input.note?.trim() ?? '';
  return personStep(deps, actor, input, async (tx, current) => {
    if (current.state !== 'open') throw new AppError('CONFLICT', `This alarm is already ${current.state}`);
    await acknowledgeAlarmRow(tx, current.id, {
      at: deps.now(),
      userId: actor.userId,
      display: actor.displayName,
      reason: input.reason,
      note,
    });
    return {
      step: {
        code: 'MP_0013',
        message: `${actor.displayName} acknowledged ${label(current)}: ${alarmReasons[input.reason]}${note ? ` (${note})` : ''}`,
        audit: 'alarm.acknowledge',
        webhook: 'machine.alarm.acknowledged',
      },
      extra: { reason: input.reason, note },
    };
  });
};

export const resolveAlarm: Service<'alarms/resolve'> = (deps, actor, input) => {
  const note = input.note?.trim() ?? '';
  return personStep(deps, actor, input, async (tx, current) => {
    if (current.state === 'resolved') throw new AppError('CONFLICT', 'This alarm is already resolved');
    await resolveAlarmRow(tx, current.id, {
      at: deps.now(),
      how: 'person',
      userId: actor.userId,
      display: actor.displayName,
      note,
    });
    return {
      step: {
        code: 'MP_0015',
        message: `${actor.displayName} resolved ${label(current)}${note ? ` (${note})` : ''}`,
        audit: 'alarm.resolve',
        webhook: 'machine.alarm.resolved',
      },
      extra: { how: 'person', note },
    };
  });
};

/**
 * The locker said an alarm is over (a MachineEvent with `data.cleared`, or the temperature back in the
 * band): its unresolved alarm of that code is resolved, in the caller's transaction. Answers the
 * timeline events to publish after the commit (none when no alarm of the code was unresolved).
 */
export async function resolveByLocker(
  tx: Db,
  deps: AppDeps,
  machineIds: string[],
  code: string,
  why: string,
): Promise<RecordedEvent[]> {
  const recorded: RecordedEvent[] = [];
  for (const id of await unresolvedAlarmIds(tx, machineIds, code)) {
    const current = await findAlarm(tx, id, true);
    if (!current || current.state === 'resolved') continue;
    await resolveAlarmRow(tx, id, { at: deps.now(), how: 'locker', userId: null, display: null, note: why });
    const step = await recordStep(
      tx,
      deps,
      systemActor('locker'),
      id,
      {
        code: 'MP_0015',
        message: `${label(current)} resolved: ${why}`,
        audit: 'alarm.resolve',
        webhook: 'machine.alarm.resolved',
      },
      { how: 'locker' },
    );
    recorded.push(step.recorded);
  }
  return recorded;
}

/**
 * The escalation job: an alarm still open when its step is due goes one level up (1: the group's
 * contacts, 2: support), with a notification, texts and emails; the next step is queued after the
 * business's interval. Acknowledged or resolved alarms, and steps not yet due, are left alone. The row
 * is locked, so two runners (or a retried job) never take the same step twice.
 */
export async function escalateAlarm(deps: AppDeps, alarmId: string): Promise<'escalated' | 'not due' | 'held'> {
  const outcome = await deps.db.transaction().execute(async (tx) => {
    const alarm = await findAlarm(tx, alarmId, true);
    if (alarm?.state !== 'open' || alarm.nextEscalationAt === null) return 'held' as const;
    const now = deps.now();
    const level = alarm.escalationLevel + 1;
    if (alarm.nextEscalationAt > now) {
      await queueEscalation(tx, alarm.id, alarm.businessId, level, alarm.nextEscalationAt, now);
      return 'not due' as const;
    }
    const minutes = await escalationMinutes(tx, alarm.businessId);
    const next = level < lastEscalationLevel ? now + minutes * 60_000 : null;
    await setEscalation(tx, alarm.id, level, next, now);
    if (next !== null) await queueEscalation(tx, alarm.id, alarm.businessId, level + 1, next, now);
    const who = alarmEscalationLevels[level] ?? 'Support';
    const waitedMinutes = Math.round((now - alarm.raisedAt) / 60_000);
    const waited = `${waitedMinutes} ${waitedMinutes === 1 ? 'minute' : 'minutes'}`;
    const title = `Not acknowledged after ${waited}: ${label(alarm)} at ${alarm.machineName}`;
    const body = `${title} (${alarm.businessName}). Escalated to ${who.toLowerCase()}. Open the machine page to acknowledge it.`;
    const recipients = await escalationRecipients(tx, alarm.businessId, level);
    const notification = await tellAlarm(
      tx,
      { name: alarm.businessName, notify: 'business', ...recipients },
      {
        businessId: alarm.businessId,
        level: 'critical',
        title,
        body,
        details: { machineId: alarm.machineId, machineName: alarm.machineName, code: alarm.code, alarmId, level },
        templateKey: 'alarm.escalated',
        now,
      },
    );
    const step = await recordStep(
      tx,
      deps,
      systemActor(ESCALATION_ACTOR),
      alarm.id,
      {
        code: 'MP_0014',
        message: `${label(alarm)} escalated to ${who.toLowerCase()} (level ${level}): not acknowledged after ${waited}`,
        audit: 'alarm.escalate',
        webhook: 'machine.alarm.escalated',
      },
      { level, told: recipients.mobiles.length + recipients.emails.length },
    );
    return { ...step.recorded, notification };
  });
  if (typeof outcome === 'string') return outcome;
  publishRecorded(deps, outcome);
  return 'escalated';
}

const ESCALATION_ACTOR = 'alarms.escalate';
