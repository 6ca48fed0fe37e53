import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { listOutbox } from './service.ts';

/** `POST /api/messages/*`: the message outbox of a business, for support. */
export const messagesRoutes = (deps: AppDeps) => rpcArea(deps, 'messages', { listOutbox });
