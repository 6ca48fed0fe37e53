import { count, dismiss, dismissAll, list, sendUnreadNotificationsEmail } from '../../areas/notifications/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/notifications/*`: staff notifications, read and dismissed per user (docs/decisions/messaging.md). */
export const notificationsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'notifications', { list, count, dismiss, dismissAll, sendUnreadNotificationsEmail });
