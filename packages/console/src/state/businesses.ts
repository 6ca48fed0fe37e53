import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/** SPEC §2: business list filters are kept for the session (this tab). */
const sessionJson = createJSONStorage<string>(() => sessionStorage);

/** The search text of the Businesses list (both tabs). */
export const businessesSearchAtom = atomWithStorage('medlocker.businesses.search', '', sessionJson, {
  getOnInit: true,
});

/** The search text of a business's Users page. */
export const businessUsersSearchAtom = atomWithStorage('medlocker.businessUsers.search', '', sessionJson, {
  getOnInit: true,
});
