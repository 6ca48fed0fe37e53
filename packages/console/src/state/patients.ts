import { keptAtom } from './kept.ts';

// SPEC §2: the patients list's filters are kept for the session (this tab).

/** Search text of the patients list (a prefix of name, display id, mobile or email). */
export const patientsSearchAtom = keptAtom('medlocker.patients.search', '');
/** Leave deleted patients out. */
export const patientsOnlyCurrentAtom = keptAtom('medlocker.patients.onlyCurrent', true);
/** Only patients whose last SMS or email failed. */
export const patientsOnlyWithIssuesAtom = keptAtom('medlocker.patients.onlyWithIssues', false);
/** The sign-ups list shows confirmed and rejected ones instead of waiting ones. */
export const signUpsPastAtom = keptAtom('medlocker.signUps.past', false);
