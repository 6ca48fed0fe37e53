import {
  type AlarmTemplateCode,
  alarmTemplateCodes,
  defaultAlarmMessages,
  formatTemperature,
  type Level,
  type Machine,
  type MachineEvent,
  machineAlerts,
  type Notification,
  renderTemplate,
} from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { emitMachineEvent } from '../../delivery/webhooks/emit.ts';
import { liveOf } from '../../live/live.ts';
import { tellAlarm } from './alarm-delivery.ts';
import { openAlarm } from './alarm-raise.ts';
import { findAlarmRecipients, findAlarmTemplateBody, insertMachineEvent } from './event-repository.ts';
import type { Db, MachineRecord } from './repository.ts';

/** Where an alarm message's `${supportArticle}` points: the support article of the code. */
export const supportArticleUrl = (code: string): string => `https://support.medlocker.co.uk/alarms/${code}`;

export type NewMachineEvent = {
  code: string;
  level?: Level;
  message?: string;
  data?: Record<string, unknown>;
  bagId?: string | null;
  barcode?: string | null;
  lockerEventId?: string | null;
  seq?: number | null;
  created: number;
};

/** A stored machine event, its staff notification if it is an alarm, and whether its machine is in the fleet. */
export type RecordedEvent = { event: MachineEvent; notification: Notification | null; fleet: boolean };

const isAlarmCode = (code: string): code is AlarmTemplateCode =>
  (alarmTemplateCodes as readonly string[]).includes(code);

const catalogueEntry = (code: string): { name: string; level: Level } | undefined =>
  (machineAlerts as Record<string, { name: string; level: Level }>)[code];

/** 'MainsPowerFailure' → 'Mains power failure'. */
const humanName = (name: string): string => {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * Stores an event of a machine, inside the caller's transaction. When its code has an alarm message
 * template it also creates the staff notification and queues the alarm to the business's keyholder
 * mobiles (SMS) and notification emails in the message outbox, all in the same transaction; a QA test
 * machine's alarm goes to the person who added it alone (`findAlarmRecipients`).
 * A change of the machine's state or an alarm is also an integration event (delivery/webhooks/emit.ts):
 * pass the machine as it is after the change. Publish the result with {@link publishRecorded} once the
 * transaction has committed.
 */
export async function recordMachineEvent(
  db: Db,
  deps: AppDeps,
  { machine, online, test }: MachineRecord,
  e: NewMachineEvent,
): Promise<RecordedEvent> {
  const entry = catalogueEntry(e.code);
  const level = e.level ?? entry?.level ?? 'info';
  const now = deps.now();
  const event = await insertMachineEvent(db, {
    id: Bun.randomUUIDv7(),
    businessId: machine.businessId,
    machineId: machine.id,
    bagId: e.bagId ?? null,
    barcode: e.barcode ?? null,
    code: e.code,
    level,
    message: e.message ?? (entry ? humanName(entry.name) : e.code),
    data: e.data ?? {},
    lockerEventId: e.lockerEventId ?? null,
    seq: e.seq ?? null,
    created: e.created,
  });
  await emitMachineEvent(
    db,
    deps,
    {
      id: machine.id,
      businessId: machine.businessId,
      name: machine.name,
      online,
      inOrder: machine.outOfOrderStatus === null,
      archived: machine.archived !== null,
    },
    event,
  );
  const fleet = !test;
  await openAlarm(db, deps, { id: machine.id, businessId: machine.businessId, test }, event, level);
  if (!isAlarmCode(e.code)) return { event, notification: null, fleet };
  const notification = await raiseAlarm(db, machine, e.code, level, event, now);
  return { event, notification, fleet };
}

async function raiseAlarm(
  db: Db,
  machine: Machine,
  code: AlarmTemplateCode,
  level: Level,
  event: MachineEvent,
  now: number,
): Promise<Notification | null> {
  const recipients = await findAlarmRecipients(db, machine.id);
  const template = await findAlarmTemplateBody(db, code);
  const average = typeof event.data?.average === 'number' ? event.data.average : undefined;
  const body = renderTemplate(template ?? defaultAlarmMessages[code], {
    machineAndBusiness: `${machine.name} at ${recipients.name}`,
    temperature: average === undefined ? undefined : formatTemperature(average),
    supportArticle: supportArticleUrl(code),
  });
  return tellAlarm(db, recipients, {
    businessId: machine.businessId,
    level,
    title: `${humanName(machineAlerts[code].name)}: ${machine.name}`,
    body,
    details: { machineId: machine.id, machineName: machine.name, code, eventId: event.id },
    templateKey: `alarm.${code}`,
    now,
  });
}

/** Tells the consoles about a committed event (and its notification). */
export function publishRecorded(deps: AppDeps, recorded: RecordedEvent): void {
  const live = liveOf(deps);
  const { event, notification, fleet } = recorded;
  live.publish({
    businessId: event.businessId,
    machineId: event.machineId,
    fleet,
    message: { action: 'machineEvent', params: { event } },
  });
  if (notification) {
    live.publish({
      businessId: event.businessId,
      machineId: event.machineId,
      fleet,
      message: { action: 'notification', params: { notification } },
    });
  }
}
