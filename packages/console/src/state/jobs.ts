import type { JobState } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

// SPEC §2: list filters are kept for the session (this tab), as the other lists keep theirs.
const stateStorageAtom = atomWithStorage<JobState | null>(
  'medlocker.jobs.state',
  null,
  createJSONStorage<JobState | null>(() => sessionStorage),
  { getOnInit: true },
);
const typeStorageAtom = atomWithStorage<string>(
  'medlocker.jobs.type',
  '',
  createJSONStorage<string>(() => sessionStorage),
  { getOnInit: true },
);

/** The Jobs page's state filter; null for every state. */
export const jobsStateAtom = atom(
  (get) => get(stateStorageAtom),
  (_get, set, state: JobState | null) => set(stateStorageAtom, state),
);

/** The Jobs page's type filter; '' for every type. */
export const jobsTypeAtom = atom(
  (get) => get(typeStorageAtom),
  (_get, set, type: string) => set(typeStorageAtom, type),
);
