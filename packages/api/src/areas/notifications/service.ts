import { AppError, type NotificationListItem, notificationsPageSize, toIsoDate } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Out, Service } from '../../context/method.ts';
import { enqueueJob } from '../../jobs/repository.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import {
  type Audience,
  countUnread,
  digestAudiences,
  dismissAllFor,
  insertDismissal,
  listNotifications,
} from './repository.ts';

/** Support sees every business's notifications; a pharmacy user those of the businesses they reach. */
export const audienceOf = (actor: StaffActor): Audience => ({
  userId: actor.userId,
  businesses: actor.kind === 'support' ? 'all' : [...actor.businesses.keys()],
});

/** A business the caller does not reach answers as one that does not exist (access/enforce.ts). */
function requireReach(who: Audience, businessId: string | undefined): void {
  if (businessId === undefined || who.businesses === 'all') return;
  if (!who.businesses.includes(businessId)) throw new AppError('NOT_FOUND', `No business with id ${businessId}`);
}

export const list: Service<'notifications/list'> = async (deps, actor, input) => {
  const who = audienceOf(actor);
  requireReach(who, input.businessId);
  const before = decodeIdCursor(input.nextToken);
  const notifications = await listNotifications(deps.db, who, {
    ...(input.businessId !== undefined ? { businessId: input.businessId } : {}),
    ...(input.unreadOnly ? { unreadOnly: true } : {}),
    ...(before !== undefined ? { before } : {}),
    limit: notificationsPageSize + 1,
  });
  const page = pageOf(notifications, notificationsPageSize, (r) => [r.id]);
  return { notifications: page.items, nextToken: page.nextToken };
};

export async function count(deps: AppDeps, actor: StaffActor): Out<'notifications/count'> {
  return { count: await countUnread(deps.db, audienceOf(actor)) };
}

async function findVisible(deps: AppDeps, who: Audience, id: string): Promise<NotificationListItem> {
  const [notification] = await listNotifications(deps.db, who, { id, limit: 1 });
  if (!notification) throw new AppError('NOT_FOUND', `No notification with id ${id}`);
  return notification;
}

export const dismiss: Service<'notifications/dismiss'> = async (deps, actor, input) => {
  const who = audienceOf(actor);
  await findVisible(deps, who, input.id);
  await insertDismissal(deps.db, who, input.id, { at: deps.now(), display: actor.displayName });
  return { notification: await findVisible(deps, who, input.id) };
};

export const dismissAll: Service<'notifications/dismissAll'> = async (deps, actor, input) => {
  const who = audienceOf(actor);
  requireReach(who, input.businessId);
  const stamp = { at: deps.now(), display: actor.displayName };
  return { dismissed: await dismissAllFor(deps.db, who, stamp, input.businessId) };
};

/** At most this many notifications are written out in one digest; the rest are counted. */
export const DIGEST_MAX_ITEMS = 50;

const londonTime = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' }).format(ms);

/**
 * Emails one user a digest of what they have not dismissed; nothing when that is nothing. The daily
 * digest job calls it for each user of `digestAudiences`; `sendUnreadNotificationsEmail` for the caller.
 */
export async function sendUnreadDigest(
  deps: AppDeps,
  to: Audience & { email: string },
): Promise<{ sent: boolean; count: number }> {
  const total = await countUnread(deps.db, to);
  if (total === 0) return { sent: false, count: 0 };
  const unread = await listNotifications(deps.db, to, { unreadOnly: true, limit: DIGEST_MAX_ITEMS });
  const site = (deps.config.publicUrls[0] ?? '').replace(/\/+$/, '');
  const lines = unread.map((n) => `- ${londonTime(n.created)} · ${n.businessName} · ${n.title}\n  ${n.body}`);
  if (total > unread.length) lines.push(`…and ${total - unread.length} more.`);
  await deps.mailer.send({
    to: to.email,
    subject: `${deps.config.productName}: ${total} unread notification${total === 1 ? '' : 's'}`,
    text: [
      `You have ${total} unread notification${total === 1 ? '' : 's'}:`,
      '',
      ...lines,
      '',
      `See and dismiss them at ${site}/notifications`,
    ].join('\n'),
  });
  return { sent: true, count: total };
}

export const sendUnreadNotificationsEmail = (deps: AppDeps, actor: StaffActor) =>
  sendUnreadDigest(deps, { ...audienceOf(actor), email: actor.email });

/**
 * The daily digest: one job per staff member with a role, each mailing that person their unread
 * notifications, so a mail that fails is retried alone and nobody already mailed is mailed again.
 * Queued once per person and London day (dedupe key). How many were queued.
 */
export async function queueDailyDigests(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const day = toIsoDate(now);
  let queued = 0;
  for (const audience of await digestAudiences(deps.db)) {
    const id = await enqueueJob(
      deps.db,
      {
        type: 'notifications.digest',
        payload: { userId: audience.userId },
        dedupeKey: `notifications.digest:${audience.userId}:${day}`,
        runAfter: now,
      },
      now,
    );
    if (id) queued += 1;
  }
  return queued;
}

/** One person's daily digest (the `notifications.digest` job): whether a mail went. */
export async function sendDailyDigestTo(deps: AppDeps, userId: string): Promise<boolean> {
  const [audience] = await digestAudiences(deps.db, userId);
  if (!audience) return false;
  return (await sendUnreadDigest(deps, audience)).sent;
}
