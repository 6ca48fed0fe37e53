import { isLivePush, type LivePush, liveCloseCodes } from '@medlocker/core';
import { atom } from 'jotai';
import { useEffect, useRef } from 'react';
import { store } from './store.ts';

/**
 * The console's one live connection: a WebSocket to the console hub (`/ws`) per tab.
 *
 * - `useLiveSubscription(topic)`: while a component is mounted, the tab is subscribed to pushes of a
 *   business (`{ businessId }`), a machine (`{ machineId }`), a group (`{ groupId }`), the whole fleet
 *   (`{ fleet: true }`) or every staff notification the user may see (`{ notifications: true }`). Subscriptions are counted by key, so two components asking for the same topic
 *   share it; the socket opens with the first and closes a little after the last goes.
 * - `onLivePush(listener)`: state modules register here (at module load) and write what they need into
 *   the jotai store with `store.set` (see state/machines.ts, state/fleet.ts). Returns an unsubscribe.
 * - `useLivePush(listener)`: the same from a component while it is mounted (e.g. reload on `archived`).
 * - `liveConnectionAtom`: 'connecting' | 'open' | 'closed', for a "live updates paused" hint.
 * - `onLiveSubscribed(listener)`: the hub confirmed a subscription (`subscribed`): from then on its pushes
 *   arrive, and what was read before may have missed one (state/invalidate.ts catches up).
 *
 * Pushes are `{ action, params }` (SPEC §3 WebSocket message body), core's `LivePush` union shared with
 * the api: statusUpdate, machineEvent, temperature, notification, archived, unarchived, switchBusiness
 * (the user's access changed: the session is read again); a listener narrows on `action`. A frame of
 * an action this console does not know (a newer server) is ignored. The socket reconnects with
 * exponential backoff and full jitter (1 s doubling to 30 s) and subscribes again to every topic.
 */

export type LiveTopic =
  | { businessId: string }
  | { machineId: string }
  | { groupId: string }
  | { fleet: true }
  /** Every notification the user may see (the bell), of any business they reach. */
  | { notifications: true };
export type { LivePush };
export type LiveListener = (push: LivePush) => void;
export type LiveConnection = 'connecting' | 'open' | 'closed';

const connectionAtom = atom<LiveConnection>('closed');
/** Where the live connection stands. */
export const liveConnectionAtom = atom((get) => get(connectionAtom));

const listeners = new Set<LiveListener>();
const subscribedListeners = new Set<(topic: LiveTopic) => void>();
const sessionEndedListeners = new Set<(code: number) => void>();
const sessionCloseCodes = new Set<number>(Object.values(liveCloseCodes));
const topics = new Map<string, { topic: LiveTopic; count: number }>();
let socket: WebSocket | null = null;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

/** A stable key per topic: 'business:b_1', 'machine:m_2', 'group:g_3', 'fleet'. */
export function topicKey(topic: LiveTopic): string {
  if ('businessId' in topic) return `business:${topic.businessId}`;
  if ('machineId' in topic) return `machine:${topic.machineId}`;
  if ('groupId' in topic) return `group:${topic.groupId}`;
  if ('notifications' in topic) return 'notifications';
  return 'fleet';
}

/**
 * Registers a listener for the server hanging up because of the session (logged out elsewhere, timed
 * out, access removed); returns the function that removes it.
 */
export function onLiveSessionEnded(listener: (code: number) => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Registers a listener for every push; returns the function that removes it. */
export function onLivePush(listener: LiveListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Registers a listener for the hub confirming a subscription (a first one, or each again after a
 * reconnect); returns the function that removes it.
 */
export function onLiveSubscribed(listener: (topic: LiveTopic) => void): () => void {
  subscribedListeners.add(listener);
  return () => subscribedListeners.delete(listener);
}

/** The topic of a `subscribed` frame (the hub echoes what was asked), or null for any other frame. */
function subscribedTopic(frame: unknown): LiveTopic | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const { action, params } = frame as { action?: unknown; params?: unknown };
  return action === 'subscribed' && typeof params === 'object' && params !== null ? (params as LiveTopic) : null;
}

/** Calls every listener with `value`; one that throws is logged, and the others still hear it. */
function tell<T>(to: Iterable<(value: T) => void>, value: T) {
  for (const listener of to) {
    try {
      listener(value);
    } catch (error) {
      console.warn('live listener failed', error);
    }
  }
}

function send(action: 'subscribe' | 'unsubscribe', topic: LiveTopic) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action, params: topic }));
}

function connect() {
  clearTimeout(retryTimer);
  if (socket || topics.size === 0) return;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  store.set(connectionAtom, 'connecting');
  ws.onopen = () => {
    attempt = 0;
    store.set(connectionAtom, 'open');
    for (const { topic } of topics.values()) send('subscribe', topic);
  };
  ws.onmessage = (event) => {
    let push: unknown;
    try {
      push = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const confirmed = subscribedTopic(push);
    if (confirmed) tell(subscribedListeners, confirmed);
    else if (isLivePush(push)) tell(listeners, push);
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    store.set(connectionAtom, 'closed');
    if (sessionCloseCodes.has(event.code)) for (const listener of sessionEndedListeners) listener(event.code);
    if (topics.size === 0) return;
    // Full jitter: a server restart does not bring every console back in the same second.
    const delay = Math.random() * Math.min(30_000, 1000 * 2 ** attempt++);
    retryTimer = setTimeout(connect, delay);
  };
}

function disconnectWhenIdle() {
  clearTimeout(idleTimer);
  // A page change unsubscribes then subscribes again at once: keep the socket through it.
  idleTimer = setTimeout(() => {
    if (topics.size > 0 || !socket) return;
    const ws = socket;
    socket = null;
    ws.close();
    store.set(connectionAtom, 'closed');
  }, 5_000);
}

/** Subscribes the tab to a topic; returns the function that lets go of it. */
export function subscribeLive(topic: LiveTopic): () => void {
  const key = topicKey(topic);
  const held = topics.get(key);
  if (held) held.count++;
  else {
    topics.set(key, { topic, count: 1 });
    send('subscribe', topic);
  }
  connect();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const entry = topics.get(key);
    if (!entry) return;
    if (--entry.count === 0) {
      topics.delete(key);
      send('unsubscribe', topic);
      if (topics.size === 0) disconnectWhenIdle();
    }
  };
}

/** Keeps the tab subscribed to `topic` while the component is mounted (null: nothing yet). */
export function useLiveSubscription(topic: LiveTopic | null): void {
  const key = topic ? topicKey(topic) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the topic
  useEffect(() => (topic ? subscribeLive(topic) : undefined), [key]);
}

/** Calls `listener` for every push while the component is mounted (the latest listener is used). */
export function useLivePush(listener: LiveListener): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => onLivePush((push) => ref.current(push)), []);
}
