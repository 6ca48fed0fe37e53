import type { AppDeps } from '../../context/deps.ts';
import { queueMessages } from '../../outbox/index.ts';
import { insertBusinessNotification } from '../../staff-notifications/repository.ts';
import { findAlarmRecipients } from './event-repository.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import { findMachine } from './repository.ts';

/**
 * Tells a machine's business that someone may be guessing PINs at its keypad (the keypad rule of
 * areas/orders/keypad.ts): a PinGuessing event (MP_0008, warn: also a `machine.alarm` webhook), a
 * staff notification, and an email to the business's notification addresses. Its own transaction:
 * the wrong PIN that raised it is already recorded.
 */
export async function alertPinGuessing(
  deps: AppDeps,
  machineId: string,
  wrong: { count: number; windowMinutes: number },
): Promise<void> {
  const now = deps.now();
  const recorded = await deps.db.transaction().execute(async (tx) => {
    const found = await findMachine(tx, machineId);
    if (!found) return undefined;
    const { machine } = found;
    const business = await findAlarmRecipients(tx, machine.businessId);
    const title = `Possible PIN guessing: ${machine.name}`;
    const body =
      `${wrong.count} wrong PINs have been typed at ${machine.name} at ${business.name} in the last ` +
      `${wrong.windowMinutes} minutes. The keypad now makes each try wait, up to two minutes, so patients ` +
      'can still collect. If nobody at the pharmacy expects this, check the locker and its camera.';
    const event = await recordMachineEvent(tx, deps, found, {
      code: 'MP_0008',
      message: `${wrong.count} wrong PINs in ${wrong.windowMinutes} minutes`,
      data: { wrongPins: wrong.count, windowMinutes: wrong.windowMinutes },
      created: now,
    });
    const notification = await insertBusinessNotification(tx, {
      id: Bun.randomUUIDv7(),
      businessId: machine.businessId,
      level: 'warn',
      title,
      body,
      details: { machineId: machine.id, machineName: machine.name, code: 'MP_0008', eventId: event.event.id },
      now,
    });
    await queueMessages(
      tx,
      business.notificationEmails.map((to) => ({
        businessId: machine.businessId,
        message: { channel: 'email' as const, recipient: to, templateKey: 'alarm.MP_0008', subject: title, body },
        runAfter: now,
      })),
      now,
    );
    return { ...event, notification };
  });
  if (recorded) publishRecorded(deps, recorded);
}
