import { keptAtom } from './kept.ts';

/*
 * SPEC §2: the group pages', group users' and group businesses' filters persist in local storage,
 * so they survive closing the browser (unlike the other lists, kept for the session).
 */

/** The search text of the Groups list (both tabs). */
export const groupsSearchAtom = keptAtom('medlocker.groups.search', '', 'local');
/** The search text of a group's Users page. */
export const groupUsersSearchAtom = keptAtom('medlocker.groupUsers.search', '', 'local');
/** The search text of a group's Businesses page. */
export const groupBusinessesSearchAtom = keptAtom('medlocker.groupBusinesses.search', '', 'local');
/** The 'Show archived' toggle of a group's Businesses page. */
export const groupBusinessesShowArchivedAtom = keptAtom('medlocker.groupBusinesses.showArchived', false, 'local');
