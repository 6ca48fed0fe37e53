import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/** SPEC §2: list filters are kept for the session (this tab), so coming back finds the same search. */
const supportUsersSearchStorageAtom = atomWithStorage(
  'medlocker.supportUsers.search',
  '',
  createJSONStorage<string>(() => sessionStorage),
  { getOnInit: true },
);

/** The search text of the Support Users list. */
export const supportUsersSearchAtom = atom(
  (get) => get(supportUsersSearchStorageAtom),
  (_get, set, text: string) => set(supportUsersSearchStorageAtom, text),
);
