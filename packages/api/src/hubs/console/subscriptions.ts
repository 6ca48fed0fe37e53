import { type } from 'arktype';
import type { ConsoleEvent } from '../../live/live.ts';
import type { ConsoleReach } from './reach-repository.ts';

/**
 * What a console may ask on `/ws`: `{ action: 'subscribe' | 'unsubscribe', params: { businessId } |
 * { machineId } | { groupId } | { fleet: true } | { notifications: true } }`, or `ping`. Answers and
 * pushes are `{ action, params }`.
 */
export const ConsoleRequest = type({
  action: "'subscribe' | 'unsubscribe' | 'ping'",
  'params?': type({
    'businessId?': 'string > 0',
    'machineId?': 'string > 0',
    'groupId?': 'string > 0',
    'fleet?': 'boolean',
    /** Every staff notification the user may see (the bell), and nothing else of the fleet's. */
    'notifications?': 'boolean',
  }),
});
export type ConsoleRequest = typeof ConsoleRequest.infer;

/** What one console watches. */
export type Subscriptions = {
  fleet: boolean;
  notifications: boolean;
  businesses: Set<string>;
  machines: Set<string>;
  groups: Set<string>;
};

export const noSubscriptions = (): Subscriptions => ({
  fleet: false,
  notifications: false,
  businesses: new Set(),
  machines: new Set(),
  groups: new Set(),
});

/** Subscribes or unsubscribes as a request asks; answers the frame that confirms it (`subscribed`…). */
export function subscribe(
  subs: Subscriptions,
  action: 'subscribe' | 'unsubscribe',
  params: NonNullable<ConsoleRequest['params']> = {},
) {
  const add = action === 'subscribe';
  if (params.fleet !== undefined) subs.fleet = add && params.fleet;
  if (params.notifications !== undefined) subs.notifications = add && params.notifications;
  if (params.businessId) add ? subs.businesses.add(params.businessId) : subs.businesses.delete(params.businessId);
  if (params.machineId) add ? subs.machines.add(params.machineId) : subs.machines.delete(params.machineId);
  if (params.groupId) add ? subs.groups.add(params.groupId) : subs.groups.delete(params.groupId);
  return { action: `${action}d`, params };
}

/** True when a console subscribed to what a push is about. */
export const wants = (subs: Subscriptions, event: ConsoleEvent): boolean =>
  (subs.fleet && event.fleet !== false) ||
  (subs.notifications && event.message.action === 'notification') ||
  subs.businesses.has(event.businessId) ||
  (!!event.machineId && subs.machines.has(event.machineId)) ||
  (!!event.groupId && subs.groups.has(event.groupId));

/** True when a connection may see a push: support staff see every one; a pharmacy user, its businesses' and groups'. */
export const maySee = (reach: ConsoleReach | null, event: ConsoleEvent): boolean =>
  reach === null ||
  (event.businessId !== '' && reach.businesses.has(event.businessId)) ||
  (!!event.groupId && reach.groups.has(event.groupId));
