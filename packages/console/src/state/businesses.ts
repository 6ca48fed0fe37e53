import { keptAtom } from './kept.ts';

// SPEC §2: business list filters are kept for the session (this tab).

/** The search text of the Businesses list (both tabs). */
export const businessesSearchAtom = keptAtom('medlocker.businesses.search', '');
/** The search text of a business's Users page. */
export const businessUsersSearchAtom = keptAtom('medlocker.businessUsers.search', '');
