import { keptAtom } from './kept.ts';

/** The search text of the Support Users list, kept for the session (SPEC §2). */
export const supportUsersSearchAtom = keptAtom('medlocker.supportUsers.search', '');
