import type { AppDeps } from '../../context/deps.ts';
import { tellAlarm } from './alarm-delivery.ts';
import { findAlarmRecipients } from './event-repository.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import { findMachine } from './repository.ts';

/**
 * Tells a machine's business that someone may be guessing PINs at its keypad (the keypad rule of
 * areas/orders/keypad.ts): a PinGuessing event (MP_0008, warn: also a `machine.alarm` webhook), a
 * staff notification, and an email to the business's notification addresses (a test machine's: to
 * the person who added it alone). Its own transaction:
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
    const recipients = await findAlarmRecipients(tx, machine.id);
    const title = `Possible PIN guessing: ${machine.name}`;
    const body =
      `${wrong.count} wrong PINs have been typed at ${machine.name} at ${recipients.name} in the last ` +
      `${wrong.windowMinutes} minutes. The keypad now makes each try wait, up to two minutes, so patients ` +
      'can still collect. If nobody at the pharmacy expects this, check the locker and its camera.';
    const event = await recordMachineEvent(tx, deps, found, {
      code: 'MP_0008',
      message: `${wrong.count} wrong PINs in ${wrong.windowMinutes} minutes`,
      data: { wrongPins: wrong.count, windowMinutes: wrong.windowMinutes },
      created: now,
    });
    // The business's notification emails, not its keyholders' mobiles: nothing is broken at the locker.
    const notification = await tellAlarm(
      tx,
      { ...recipients, mobiles: [] },
      {
        businessId: machine.businessId,
        level: 'warn',
        title,
        body,
        details: { machineId: machine.id, machineName: machine.name, code: 'MP_0008', eventId: event.event.id },
        templateKey: 'alarm.MP_0008',
        now,
      },
    );
    return { ...event, notification };
  });
  if (recorded) publishRecorded(deps, recorded);
}
