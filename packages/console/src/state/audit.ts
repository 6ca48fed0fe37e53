import { keptAtom } from './kept.ts';

// SPEC §2: list filters are kept for the session (this tab), as the other lists keep theirs.

/** The audit trail's filters: ids, an action, and London days (YYYY-MM-DD); '' for none. */
export const auditPatientAtom = keptAtom('medlocker.audit.patient', '');
export const auditUserAtom = keptAtom('medlocker.audit.user', '');
export const auditBusinessAtom = keptAtom('medlocker.audit.business', '');
export const auditOrderAtom = keptAtom('medlocker.audit.order', '');
export const auditActionAtom = keptAtom('medlocker.audit.action', '');
export const auditFromAtom = keptAtom('medlocker.audit.from', '');
export const auditToAtom = keptAtom('medlocker.audit.to', '');
