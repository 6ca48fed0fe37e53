import { type } from 'arktype';

/** Actions pushed to consoles over the live connection (SPEC §4). */
export const liveUpdateActions = ['archived', 'statusUpdate', 'switchBusiness', 'unarchived'] as const;
export const LiveUpdateAction = type.enumerated(...liveUpdateActions);
export type LiveUpdateAction = typeof LiveUpdateAction.infer;

/** A WebSocket message (SPEC §3): the connection it came from and an action with its params. */
export const WebSocketMessage = type({
  connectionId: 'string',
  body: { action: 'string', 'params?': 'Record<string, unknown>' },
});
export type WebSocketMessage = typeof WebSocketMessage.infer;
