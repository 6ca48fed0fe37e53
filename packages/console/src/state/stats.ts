import type { CollectionFilter } from '@medlocker/core';
import { keptAtom } from './kept.ts';

// SPEC §2: the stats filters are kept for the session (this tab), as the other lists keep theirs.

/** The collection records' filter; null for All. */
export const collectionFilterAtom = keptAtom<CollectionFilter | null>('medlocker.stats.collectionFilter', null);
/** The first day (YYYY-MM-DD, London) of the records; null for the first of this month. */
export const statsFromAtom = keptAtom<string | null>('medlocker.stats.from', null);
/** The last day (YYYY-MM-DD, London) of the records; null for today. */
export const statsToAtom = keptAtom<string | null>('medlocker.stats.to', null);
/** The newest month (YYYY-MM, London) of the monthly figures; null for this month. */
export const statsMonthAtom = keptAtom<string | null>('medlocker.stats.month', null);
/** The newest month (YYYY-MM) of a group's comparison; null for this month. Group pages keep theirs for good. */
export const groupStatsMonthAtom = keptAtom<string | null>('medlocker.groupStats.month', null, 'local');
