import type { DeliveryStatus } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

// SPEC §2: list filters are kept for the session (this tab), as the machines and patients lists keep theirs.
const statusStorageAtom = atomWithStorage<DeliveryStatus | null>(
  'medlocker.messages.status',
  null,
  createJSONStorage<DeliveryStatus | null>(() => sessionStorage),
  { getOnInit: true },
);

/** The Messages page's delivery status filter; null for every status. */
export const messagesStatusAtom = atom(
  (get) => get(statusStorageAtom),
  (_get, set, status: DeliveryStatus | null) => set(statusStorageAtom, status),
);
