import type { CollectionFilter } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

// SPEC §2: the stats filters are kept for the session (this tab), as the other lists keep theirs.
const session = <T>(key: string, initial: T) =>
  atomWithStorage<T>(
    `medlocker.stats.${key}`,
    initial,
    createJSONStorage<T>(() => sessionStorage),
    {
      getOnInit: true,
    },
  );

const filterStorageAtom = session<CollectionFilter | null>('collectionFilter', null);
const fromStorageAtom = session<string | null>('from', null);
const toStorageAtom = session<string | null>('to', null);

/** The collection records' filter; null for All. */
export const collectionFilterAtom = atom(
  (get) => get(filterStorageAtom),
  (_get, set, filter: CollectionFilter | null) => set(filterStorageAtom, filter),
);

/** The first day (YYYY-MM-DD, London) of the records; null for the first of this month. */
export const statsFromAtom = atom(
  (get) => get(fromStorageAtom),
  (_get, set, day: string | null) => set(fromStorageAtom, day),
);

/** The last day (YYYY-MM-DD, London) of the records; null for today. */
export const statsToAtom = atom(
  (get) => get(toStorageAtom),
  (_get, set, day: string | null) => set(toStorageAtom, day),
);

const monthStorageAtom = session<string | null>('month', null);

/** The newest month (YYYY-MM, London) of the monthly figures; null for this month. */
export const statsMonthAtom = atom(
  (get) => get(monthStorageAtom),
  (_get, set, month: string | null) => set(monthStorageAtom, month),
);

// SPEC §2: group pages' filters are persisted in local storage, not only for the session.
const groupMonthStorageAtom = atomWithStorage<string | null>(
  'medlocker.groupStats.month',
  null,
  createJSONStorage<string | null>(() => localStorage),
  { getOnInit: true },
);

/** The newest month (YYYY-MM) of a group's comparison; null for this month. */
export const groupStatsMonthAtom = atom(
  (get) => get(groupMonthStorageAtom),
  (_get, set, month: string | null) => set(groupMonthStorageAtom, month),
);
