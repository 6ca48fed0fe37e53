import * as webhookDeliveries from '../../areas/webhook-deliveries/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/webhooks/*`: the webhook delivery console of a business. */
export const webhooksRoutes = (deps: AppDeps) => rpcArea(deps, 'webhooks', webhookDeliveries);
