import { atom, type WritableAtom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/**
 * A value kept in the browser's storage under `key` (SPEC §2: a list's filters come back when the
 * user does): for the session, this tab only, by default; in local storage, surviving a closed
 * browser, for the group pages. Read as the page loads, so a list's first request already has it.
 * The storage atom stays private: the page only reads and sets the value.
 */
export function keptAtom<T>(
  key: string,
  initial: T,
  where: 'session' | 'local' = 'session',
): WritableAtom<T, [T], void> {
  const storage = atomWithStorage<T>(
    key,
    initial,
    createJSONStorage<T>(() => (where === 'local' ? localStorage : sessionStorage)),
    { getOnInit: true },
  );
  return atom(
    (get) => get(storage),
    (_get, set, value: T) => set(storage, value),
  );
}
