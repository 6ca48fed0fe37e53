import type { WebhookEventType, WebhookOutcome } from '@medlocker/core';
import { keptAtom } from './kept.ts';

// SPEC §2: list filters are kept for the session (this tab), as the other lists keep theirs.

/** How far back the deliveries list looks: the last hour, day or week; null for all time. */
export type WebhookSince = '1h' | '24h' | '7d';
export const webhookSinceChoices = ['1h', '24h', '7d'] as const satisfies readonly WebhookSince[];

/** The delivery console's outcome filter; null for every outcome. */
export const webhooksOutcomeAtom = keptAtom<WebhookOutcome | null>('medlocker.webhooks.outcome', null);
/** The delivery console's event type filter; null for every type. */
export const webhooksEventTypeAtom = keptAtom<WebhookEventType | null>('medlocker.webhooks.eventType', null);
/** The delivery console's time filter; null for all time. */
export const webhooksSinceAtom = keptAtom<WebhookSince | null>('medlocker.webhooks.since', null);
