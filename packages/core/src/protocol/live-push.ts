import type { Machine } from '../machine/machine.ts';
import type { MachineEvent } from '../machine/machine-event.ts';
import type { Notification } from '../notification/notification.ts';
import type { OrderStatus } from '../order/statuses.ts';
import type { ArchivedStamp } from '../stamps.ts';

/*
 * What the console hub (`/ws`) pushes to consoles: `{ action, params }` (SPEC §3 WebSocket message
 * body), one discriminated union shared by the api (which publishes) and the console (which reads).
 * A new push is a new member here; the compiler then shows every place that must handle it. No schema
 * library here: the console's pages load this module, and arktype would weigh 40 KB on each.
 */

/** Actions pushed to consoles over the live connection (SPEC §4). */
export const liveUpdateActions = ['archived', 'statusUpdate', 'switchBusiness', 'unarchived'] as const;

/** What a locker's bag event did to a machine's contents. */
export type ContentsChange = 'loaded' | 'removed' | 'collected';

/** A machine's 3-hour temperature average as pushed after each recompute. */
export type PushedTemperatureStatus = { average: number; lastExcursionAt: number | null; updated: number };

export type StatusUpdatePush =
  /** The machine's row changed (created, renamed, online/offline, out of order): the whole Machine. */
  | {
      action: 'statusUpdate';
      params: { machine: Machine; online?: boolean; lastSeen?: number | null; businessName?: string };
    }
  /** The locker sent a StatusNotification (stored as `statusId`). */
  | {
      action: 'statusUpdate';
      params: { machineId: string; statusId: string; observations: Record<string, unknown>; created: number };
    }
  /** A bag was loaded, removed or collected: consoles showing the contents reload them. */
  | { action: 'statusUpdate'; params: { machineId: string; contents: ContentsChange } }
  /** An order was created or changed state (`sequence`: its version): lists and its page reload it. */
  | { action: 'statusUpdate'; params: { orderId: string; status: OrderStatus; sequence: number } };

/** A business, a group or a machine was archived or unarchived. */
export type ArchivePush = {
  action: 'archived' | 'unarchived';
  params:
    | { businessId: string; archived: ArchivedStamp | null; groupId?: undefined; machineId?: undefined }
    | { groupId: string; archived: ArchivedStamp | null; businessId?: undefined; machineId?: undefined }
    | {
        entity: 'machine';
        id: string;
        machine: Machine;
        businessName?: string;
        businessId?: undefined;
        groupId?: undefined;
        machineId?: undefined;
      };
};

export type LivePush =
  | StatusUpdatePush
  | ArchivePush
  /** The user's access changed: the console reads its session again. */
  | { action: 'switchBusiness'; params: { reason: 'accessChanged' } }
  | { action: 'machineEvent'; params: { event: MachineEvent } }
  | { action: 'temperature'; params: { machineId: string; temperatureStatus: PushedTemperatureStatus } }
  | { action: 'notification'; params: { notification: Notification } };

/** The hub's answers to a console's own frames (subscribe, unsubscribe, ping, or one it could not read). */
export type LiveReply =
  | { action: 'subscribed' | 'unsubscribed'; params: Record<string, unknown> }
  | { action: 'pong'; params: Record<string, never> }
  | { action: 'error'; params: { message: string } };

export type LivePushAction = LivePush['action'];

/** Every push action, for code that must list them (a missing one is a type error). */
export const livePushActions = {
  statusUpdate: true,
  archived: true,
  unarchived: true,
  switchBusiness: true,
  machineEvent: true,
  temperature: true,
  notification: true,
} as const satisfies Record<LivePushAction, true>;

/** Whether a frame read from `/ws` is a push of a known action (unknown ones are ignored: a newer server). */
export const isLivePush = (value: unknown): value is LivePush =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { action?: unknown }).action === 'string' &&
  Object.hasOwn(livePushActions, (value as { action: string }).action) &&
  typeof (value as { params?: unknown }).params === 'object' &&
  (value as { params?: unknown }).params !== null;

/**
 * How the console hub (`/ws`) hangs up because of the session: it ended (logged out, timed out, password
 * reset) or lost its access. The console reads its session again on either. Kept in this schema-free
 * module so the sign-in page's bundle does not carry the schema library for two numbers.
 */
export const liveCloseCodes = { sessionEnded: 4401, accessRemoved: 4403 } as const;
