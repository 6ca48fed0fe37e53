import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { type LivePush, onLivePush } from './live.ts';

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

/** Invalidates what each live push changed, a burst of pushes at once; returns an unsubscribe. */
export function invalidateOnLivePush(client: QueryClient, subscribe = onLivePush): () => void {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void client.invalidateQueries({ queryKey });
  };
  const unsubscribe = subscribe((push) => {
    for (const key of staleKeysOf(push)) pending.set(JSON.stringify(key), key);
    if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, invalidateAfterMs);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
