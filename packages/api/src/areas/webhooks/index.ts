import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import {
  enableEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  replayDelivery,
  replayFailed,
  sendTestEvent,
} from './service.ts';

/** `POST /api/webhooks/*`: the webhook delivery console of a business. */
export const webhooksRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'webhooks', {
    getEndpoint,
    listDeliveries,
    getDelivery,
    replayDelivery,
    replayFailed,
    sendTestEvent,
    enableEndpoint,
  });
