import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

const session = <T>(key: string, initial: T) =>
  atomWithStorage<T>(
    key,
    initial,
    createJSONStorage<T>(() => sessionStorage),
    { getOnInit: true },
  );

// SPEC §2: the patients list's filters are kept for the session (this tab).
const searchStorageAtom = session('medlocker.patients.search', '');
const onlyCurrentStorageAtom = session('medlocker.patients.onlyCurrent', true);
const onlyWithIssuesStorageAtom = session('medlocker.patients.onlyWithIssues', false);
const signUpsPastStorageAtom = session('medlocker.signUps.past', false);

const writable = <T>(storage: ReturnType<typeof session<T>>) =>
  atom(
    (get) => get(storage),
    (_get, set, value: T) => set(storage, value),
  );

/** Search text of the patients list (a prefix of name, display id, mobile or email). */
export const patientsSearchAtom = writable(searchStorageAtom);
/** Leave deleted patients out. */
export const patientsOnlyCurrentAtom = writable(onlyCurrentStorageAtom);
/** Only patients whose last SMS or email failed. */
export const patientsOnlyWithIssuesAtom = writable(onlyWithIssuesStorageAtom);
/** The sign-ups list shows confirmed and rejected ones instead of waiting ones. */
export const signUpsPastAtom = writable(signUpsPastStorageAtom);
