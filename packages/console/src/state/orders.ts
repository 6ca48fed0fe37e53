import type { OrderStatusFilter } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

const session = <T>(key: string, initial: T) =>
  atomWithStorage<T>(
    key,
    initial,
    createJSONStorage<T>(() => sessionStorage),
    { getOnInit: true },
  );

// SPEC §2: the orders list's filters are kept for the session (this tab).
const searchStorageAtom = session('medlocker.orders.search', '');
const statusStorageAtom = session<OrderStatusFilter | null>('medlocker.orders.status', null);
// On by default (docs/DECISIONS.md): the list a pharmacy works from is the bags still to be collected.
const onlyCurrentStorageAtom = session('medlocker.orders.onlyCurrent', true);

const writable = <T>(storage: ReturnType<typeof session<T>>) =>
  atom(
    (get) => get(storage),
    (_get, set, value: T) => set(storage, value),
  );

/** Search text of the orders list (part of a barcode, reference or patient name). */
export const ordersSearchAtom = writable(searchStorageAtom);
/** One status (or Expired) to list; null lists all. */
export const ordersStatusAtom = writable(statusStorageAtom);
/** Only new and loaded orders (applies while no status is chosen). */
export const ordersOnlyCurrentAtom = writable(onlyCurrentStorageAtom);
