import { useRpcQuery } from '../api/queries.ts';
import { keptAtom } from './kept.ts';
import { useLiveSubscription } from './live.ts';

/** The bell's query key; a 'notification' push invalidates every ['notifications', …] (state/invalidate.ts). */
export const notificationCountKey = ['notifications', 'count'] as const;

/**
 * The caller's unread notifications, kept current while mounted: the console hears every notification
 * the user may see (the `notifications` topic, not the whole fleet's events) and the push makes the
 * count stale, so it is asked again.
 */
export function useUnreadNotificationCount(): number | undefined {
  useLiveSubscription({ notifications: true });
  const query = useRpcQuery(notificationCountKey, {});
  return query.data?.count;
}

type Shown = 'unread';
/** The notifications page's filter: 'unread' for the ones not dismissed yet, null for all. Kept for the session. */
export const notificationsShownAtom = keptAtom<Shown | null>('medlocker.notifications.show', null);
