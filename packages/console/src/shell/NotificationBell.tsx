import { useUnreadNotificationCount } from '../state/notifications.ts';
import { Link } from '../ui/Link.tsx';
import { t } from './i18n/index.ts';

/** More than this shows as "99+", so the badge stays narrow on a phone's top bar. */
const MAX_SHOWN = 99;

/** The top bar's bell: the unread count, live, and the way to the notifications page. */
export function NotificationBell() {
  const count = useUnreadNotificationCount();
  const unread = count ?? 0;
  const label = count === undefined ? t('shell.notifications') : t('shell.notificationsUnread', { unread });
  return (
    <Link href="/notifications" className="notification-bell" aria-label={label}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
        />
      </svg>
      {unread > 0 && (
        <span className="notification-bell__count" data-testid="notification-count">
          {unread > MAX_SHOWN ? `${MAX_SHOWN}+` : unread}
        </span>
      )}
    </Link>
  );
}
