import { defaultAlarmEscalationMinutes, isCriticalAlarmCode, type Level, type MachineEvent } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { enqueueJob } from '../../jobs/repository.ts';
import { escalationMinutesOf, openAlarmRow } from './alarms-repository.ts';
import { auditMachine } from './machine-audit.ts';
import type { Db } from './repository.ts';

/** The job that takes an unacknowledged alarm's next escalation step (alarms.ts `escalateAlarm`). */
export const ESCALATE_JOB = 'alarms.escalate' as const;

/** Minutes between a business's escalation steps: its setting, else the default (15). */
export const escalationMinutes = async (db: Db, businessId: string): Promise<number> =>
  (await escalationMinutesOf(db, businessId)) ?? defaultAlarmEscalationMinutes;

/** The dedupe key of an alarm's escalation step to `level`: one such job per alarm and level. */
export const escalationStepKey = (alarmId: string, level: number) => `${ESCALATE_JOB}:${alarmId}:${level}`;

/** Queues the escalation step due at `at` of an alarm, once per alarm and level. */
export const queueEscalation = (db: Db, alarmId: string, businessId: string, level: number, at: number, now: number) =>
  enqueueJob(
    db,
    {
      type: ESCALATE_JOB,
      businessId,
      payload: { alarmId },
      runAfter: at,
      dedupeKey: escalationStepKey(alarmId, level),
    },
    now,
  );

/**
 * A critical code raised by a machine (core's `criticalAlarmCodes`) opens an alarm in the event's
 * transaction, or counts a repeat of the one still unresolved. A real machine's alarm escalates while
 * nobody acknowledges it; a QA test machine's never does (its alarms tell only its maker).
 */
export async function openAlarm(
  db: Db,
  deps: AppDeps,
  machine: { id: string; businessId: string; test: boolean },
  event: MachineEvent,
  level: Level,
): Promise<void> {
  if (!isCriticalAlarmCode(event.code)) return;
  const now = deps.now();
  const next = machine.test ? null : now + (await escalationMinutes(db, machine.businessId)) * 60_000;
  const { id, opened } = await openAlarmRow(
    db,
    {
      businessId: machine.businessId,
      machineId: machine.id,
      code: event.code,
      level,
      eventId: event.id,
      raisedAt: event.created,
      nextEscalationAt: next,
    },
    now,
  );
  if (!opened) return;
  if (next !== null) await queueEscalation(db, id, machine.businessId, 1, next, now);
  await auditMachine(db, deps, systemActor('alarms'), 'alarm.raised', machine, {
    alarmId: id,
    code: event.code,
    eventId: event.id,
  });
}
