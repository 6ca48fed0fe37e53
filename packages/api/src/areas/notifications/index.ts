export {
  count,
  dismiss,
  dismissAll,
  list,
  queueDailyDigests,
  sendDailyDigestTo,
  sendUnreadNotificationsEmail,
} from './service.ts';
