import { type } from 'arktype';
import { liveUpdateActions } from './live-push.ts';

/* The schemas of the live connection's messages (the types and guards without a schema: live-push.ts). */

export const LiveUpdateAction = type.enumerated(...liveUpdateActions);
export type LiveUpdateAction = typeof LiveUpdateAction.infer;

/** A WebSocket message (SPEC §3): the connection it came from and an action with its params. */
export const WebSocketMessage = type({
  connectionId: 'string',
  body: { action: 'string', 'params?': 'Record<string, unknown>' },
});
export type WebSocketMessage = typeof WebSocketMessage.infer;
