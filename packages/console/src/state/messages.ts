import type { DeliveryStatus } from '@medlocker/core';
import { keptAtom } from './kept.ts';

/** The Messages page's delivery status filter; null for every status. Kept for the session (SPEC §2). */
export const messagesStatusAtom = keptAtom<DeliveryStatus | null>('medlocker.messages.status', null);
