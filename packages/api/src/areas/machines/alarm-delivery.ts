import type { Level, Notification } from '@medlocker/core';
import { queueMessages } from '../../outbox/index.ts';
import { insertBusinessNotification } from '../../staff-notifications/repository.ts';
import type { AlarmRecipients } from './event-repository.ts';
import type { Db } from './repository.ts';

/**
 * Tells an alarm's recipients (event-repository.ts `findAlarmRecipients`): the staff notification (for
 * the whole business, or addressed to the test machine's maker alone) and the texts and emails queued
 * in the outbox, in the caller's transaction. Returns the notification, or null when nobody is told.
 */
export async function tellAlarm(
  db: Db,
  recipients: AlarmRecipients,
  alarm: {
    businessId: string;
    level: Level;
    title: string;
    body: string;
    details: Record<string, unknown>;
    templateKey: string;
    now: number;
  },
): Promise<Notification | null> {
  const { notify } = recipients;
  if (notify === 'nobody') return null;
  const { businessId, level, title, body, details, templateKey, now } = alarm;
  const notification = await insertBusinessNotification(db, {
    id: Bun.randomUUIDv7(),
    businessId,
    userId: notify === 'business' ? null : notify.userId,
    level,
    title,
    body,
    details,
    now,
  });
  const messages = [
    ...recipients.mobiles.map((to) => ({ channel: 'sms' as const, recipient: to, subject: null })),
    ...recipients.emails.map((to) => ({ channel: 'email' as const, recipient: to, subject: title })),
  ];
  await queueMessages(
    db,
    messages.map((m) => ({ businessId, message: { ...m, templateKey, body }, runAfter: now })),
    now,
  );
  return notification;
}
