import { listOutbox } from '../../areas/messages/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/messages/*`: the message outbox of a business, for support. */
export const messagesRoutes = (deps: AppDeps) => rpcArea(deps, 'messages', { listOutbox });
