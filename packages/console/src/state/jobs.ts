import type { JobState } from '@medlocker/core';
import { keptAtom } from './kept.ts';

// SPEC §2: list filters are kept for the session (this tab), as the other lists keep theirs.

/** The Jobs page's state filter; null for every state. */
export const jobsStateAtom = keptAtom<JobState | null>('medlocker.jobs.state', null);
/** The Jobs page's type filter; '' for every type. */
export const jobsTypeAtom = keptAtom('medlocker.jobs.type', '');
