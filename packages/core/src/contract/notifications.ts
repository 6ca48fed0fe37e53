import { type } from 'arktype';
import { Notification } from '../notification/notification.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byId, withoutInput } from './method-builders.ts';
import { Paging } from './paging.ts';

/** Pages of notifications are 25 long, newest first; `nextToken` is an opaque keyset cursor on the id. */
export const notificationsPageSize = 25;

/** A notification as the list shows it: with its business's name; `dismissed` is the caller's own. */
export const NotificationListItem = Notification.and(type({ businessName: 'string' }));
export type NotificationListItem = typeof NotificationListItem.infer;

/*
 * Staff notifications (machine alarms today). Support sees every business's, a pharmacy user those of
 * the businesses their roles reach. Dismissal is per user (docs/decisions/messaging.md): the bell counts what the
 * caller has not dismissed yet.
 */
export const notifications = defineArea({
  list: {
    input: type({
      /** One business's only; every business the caller reaches when left out. */
      'businessId?': Id,
      /** Only the ones the caller has not dismissed. */
      'unreadOnly?': 'boolean',
      ...Paging,
    }),
    output: type({ notifications: NotificationListItem.array(), nextToken: 'string | null' }),
    // A business named must be one the caller reaches; without one the service filters to their reach.
    access: staff({ business: 'businessId' }),
    summary: 'Notifications of the businesses the caller reaches, newest first, 25 a page.',
  },
  count: withoutInput({
    output: type({ count: 'number' }),
    access: staff('filtered'),
    summary: 'How many notifications the caller has not dismissed (the bell).',
  }),
  dismiss: byId({
    output: type({ notification: NotificationListItem }),
    access: staff('filtered'),
    summary: 'Dismisses one notification for the caller.',
  }),
  dismissAll: {
    input: type({ 'businessId?': Id }),
    output: type({ dismissed: 'number' }),
    access: staff({ business: 'businessId' }),
    summary: 'Dismisses, for the caller, every notification they have not dismissed (of one business when given).',
  },
  sendUnreadNotificationsEmail: withoutInput({
    output: type({ sent: 'boolean', count: 'number' }),
    access: staff('self'),
    summary: 'Emails the caller a digest of their unread notifications (nothing when there are none).',
  }),
});
