import { type } from 'arktype';

/** Actions pushed to consoles over the live connection (SPEC §4). */
export const liveUpdateActions = ['archived', 'statusUpdate', 'switchBusiness', 'unarchived'] as const;
export const LiveUpdateAction = type.enumerated(...liveUpdateActions);
export type LiveUpdateAction = typeof LiveUpdateAction.infer;

/**
 * How the console hub (`/ws`) hangs up because of the session: it ended (logged out, timed out, password
 * reset) or lost the support scope. The console reads its session again on either.
 */
export const liveCloseCodes = { sessionEnded: 4401, accessRemoved: 4403 } as const;

/** A WebSocket message (SPEC §3): the connection it came from and an action with its params. */
export const WebSocketMessage = type({
  connectionId: 'string',
  body: { action: 'string', 'params?': 'Record<string, unknown>' },
});
export type WebSocketMessage = typeof WebSocketMessage.infer;
