import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/*
 * SPEC §2: the group pages', group users' and group businesses' filters persist in local storage,
 * so they survive closing the browser (unlike the other lists, kept for the session).
 */
const localString = createJSONStorage<string>(() => localStorage);
const localBoolean = createJSONStorage<boolean>(() => localStorage);

/** The search text of the Groups list (both tabs). */
export const groupsSearchAtom = atomWithStorage('medlocker.groups.search', '', localString, { getOnInit: true });

/** The search text of a group's Users page. */
export const groupUsersSearchAtom = atomWithStorage('medlocker.groupUsers.search', '', localString, {
  getOnInit: true,
});

/** The search text of a group's Businesses page. */
export const groupBusinessesSearchAtom = atomWithStorage('medlocker.groupBusinesses.search', '', localString, {
  getOnInit: true,
});

/** The 'Show archived' toggle of a group's Businesses page. */
export const groupBusinessesShowArchivedAtom = atomWithStorage(
  'medlocker.groupBusinesses.showArchived',
  false,
  localBoolean,
  { getOnInit: true },
);
