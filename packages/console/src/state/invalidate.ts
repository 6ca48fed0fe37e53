import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { type LivePush, type LiveTopic, onLivePush, onLiveSubscribed } from './live.ts';

/**
 * Which cached server answers a live push makes stale (keys are `[area, method, ...inputs]`, see
 * api/queries.ts). The push itself is drawn at once where it carries the data (state/machines.ts and
 * state/fleet.ts write it into the cache: a machine's status, a new event on top); the invalidation then brings every list and detail that shows the same
 * data back in line with the server, whether or not the page knew about the push.
 */
export function staleKeysOf(push: LivePush): QueryKey[] {
  switch (push.action) {
    case 'statusUpdate':
      // Usage stats count orders and machines: an order or a machine changing makes them stale.
      // An order cancelled, collected or expiring changes the bags to remove.
      if ('orderId' in push.params) return [['orders'], ['reports', 'getUsageStats'], ['bags']];
      return [
        ['reports', 'getUsageStats'],
        ['machines', 'getMachine'],
        ['machines', 'listMachines'],
        ['machines', 'listMachineStatus'],
        // A bag loaded, removed or collected: the machine's contents changed.
        ...('contents' in push.params && push.params.contents ? [['bags']] : []),
      ];
    case 'machineEvent':
      // An alarm raised, held, escalated or resolved is an event too: the open alarms changed.
      return [['machines', 'listEvents'], ['machines', 'getMachine'], ['bags'], ['alarms']];
    case 'notification':
      // An alarm also queued its messages; the bell's count and the notifications list changed.
      // Usage stats count the messages waiting.
      return [['messages'], ['notifications'], ['reports', 'getUsageStats']];
    case 'archived':
    case 'unarchived':
      // A business's settings answer whether they are read-only (archived): its settings pages too.
      return [['businesses'], ['groups'], ['machines'], ...(push.params.businessId ? [['businessSettings']] : [])];
    case 'switchBusiness':
      // The user's access changed: nothing cached can be trusted.
      return [[]];
    default:
      // Temperature readings are drawn from the live state; they change no cached answer a list shows.
      return [];
  }
}

/** How long pushes are gathered before the stale answers are asked again (a burst is one refetch). */
export const invalidateAfterMs = 300;

/**
 * Answers shown as figures that cost the server a read of every live order, asked again at most this
 * often however many pushes come: the usage stats (the estate's for support staff: 60–70 ms of
 * PostgreSQL at 1,000 pharmacies, PERFORMANCE.md "Report calls"). A busy estate's status pushes never
 * stop, so every open dashboard would otherwise ask for them every 300 ms. The first push after a quiet
 * spell is drawn as fast as any other.
 */
export const slowKeys: readonly { key: QueryKey; everyMs: number }[] = [
  { key: ['reports', 'getUsageStats'], everyMs: 5_000 },
];

const idOf = (key: QueryKey) => JSON.stringify(key);

/**
 * Invalidates what each live push changed, a burst of pushes at once, and a slow key no more often than
 * its interval; returns an unsubscribe.
 */
export function invalidateOnLivePush(
  client: QueryClient,
  subscribe = onLivePush,
  slow: readonly { key: QueryKey; everyMs: number }[] = slowKeys,
): () => void {
  const pending = new Map<string, QueryKey>();
  const everyMsOf = new Map(slow.map((s) => [idOf(s.key), s.everyMs]));
  /** When each slow key was last invalidated, and the timers of those held back. */
  const lastAt = new Map<string, number>();
  const held = new Map<string, ReturnType<typeof setTimeout>>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const invalidate = (id: string, queryKey: QueryKey) => {
    if (everyMsOf.has(id)) lastAt.set(id, Date.now());
    void client.invalidateQueries({ queryKey });
  };
  const flush = () => {
    timer = undefined;
    const keys = [...pending];
    pending.clear();
    for (const [id, queryKey] of keys) {
      const everyMs = everyMsOf.get(id);
      const wait = everyMs === undefined ? 0 : (lastAt.get(id) ?? Number.NEGATIVE_INFINITY) + everyMs - Date.now();
      if (wait <= 0) invalidate(id, queryKey);
      else if (!held.has(id)) {
        held.set(
          id,
          setTimeout(() => {
            held.delete(id);
            invalidate(id, queryKey);
          }, wait),
        );
      }
    }
  };
  const unsubscribe = subscribe((push) => {
    for (const key of staleKeysOf(push)) pending.set(idOf(key), key);
    if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, invalidateAfterMs);
  });
  return () => {
    clearTimeout(timer);
    for (const t of held.values()) clearTimeout(t);
    unsubscribe();
  };
}

/**
 * What a push of a business, a machine or the fleet can make stale (what {@link staleKeysOf} names for
 * statusUpdate, machineEvent and notification) but the usage stats: their tiles ask again every minute
 * by themselves, and the estate's cost 60–70 ms of PostgreSQL, which a server restart would otherwise ask
 * of every open console within its first reconnect second.
 */
const pushedKeys: readonly QueryKey[] = [
  ['orders'],
  ['bags'],
  ['alarms'],
  ['messages'],
  ['notifications'],
  ['machines', 'getMachine'],
  ['machines', 'listMachines'],
  ['machines', 'listMachineStatus'],
  ['machines', 'listEvents'],
];

/**
 * What a subscription to `topic` would have kept up to date: the answers to read again once it holds.
 * The fleet's also its summary (the support dashboard's counts, which its pushes write into the cache,
 * state/fleet.ts); the notifications topic carries notification pushes alone. A group's topic carries
 * only its archiving, and archiving is not caught up anywhere: an archive between a page's read and the
 * confirmation shows at the page's next read, and the server refuses changes to what is archived.
 */
export function catchUpKeysOf(topic: LiveTopic): readonly QueryKey[] {
  if ('notifications' in topic) return [['messages'], ['notifications']];
  if ('groupId' in topic) return [];
  // state/fleet.ts's fleetKey, named here so that a page without the fleet does not load its module.
  if ('fleet' in topic) return [...pushedKeys, ['machines', 'fleetSummary']];
  return pushedKeys;
}

/**
 * A page reads its answers and subscribes to their pushes at the same time: a push sent after an answer
 * was read but before the hub confirmed the subscription reaches nobody (an alarm raised while the
 * dashboard opens; everything while the socket was down and reconnecting). So when the hub confirms a
 * subscription, the answers it covers that the cache holds are read again, but not those on their way at
 * that moment (read again, the first answers of every page would cost the server twice; they could miss
 * only a push sent while the server was reading them). Several confirmations at once (a reconnect
 * subscribes again to every topic) read each answer once: the later ones find it on its way. Returns an
 * unsubscribe.
 */
export function catchUpOnSubscribed(client: QueryClient, subscribe = onLiveSubscribed): () => void {
  return subscribe((topic) => {
    for (const queryKey of catchUpKeysOf(topic)) {
      void client.invalidateQueries({
        queryKey,
        predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.fetchStatus === 'idle',
      });
    }
  });
}
