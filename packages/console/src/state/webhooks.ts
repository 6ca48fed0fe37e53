import type { WebhookEventType, WebhookOutcome } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

// SPEC §2: list filters are kept for the session (this tab), as the other lists keep theirs.
const session = <T>(key: string, initial: T) =>
  atomWithStorage<T>(
    `medlocker.webhooks.${key}`,
    initial,
    createJSONStorage<T>(() => sessionStorage),
    {
      getOnInit: true,
    },
  );

const outcomeStorageAtom = session<WebhookOutcome | null>('outcome', null);
const eventTypeStorageAtom = session<WebhookEventType | null>('eventType', null);
const sinceStorageAtom = session<WebhookSince | null>('since', null);

/** How far back the deliveries list looks: the last hour, day or week; null for all time. */
export type WebhookSince = '1h' | '24h' | '7d';
export const webhookSinceChoices = ['1h', '24h', '7d'] as const satisfies readonly WebhookSince[];

/** The delivery console's outcome filter; null for every outcome. */
export const webhooksOutcomeAtom = atom(
  (get) => get(outcomeStorageAtom),
  (_get, set, outcome: WebhookOutcome | null) => set(outcomeStorageAtom, outcome),
);

/** The delivery console's event type filter; null for every type. */
export const webhooksEventTypeAtom = atom(
  (get) => get(eventTypeStorageAtom),
  (_get, set, eventType: WebhookEventType | null) => set(eventTypeStorageAtom, eventType),
);

/** The delivery console's time filter; null for all time. */
export const webhooksSinceAtom = atom(
  (get) => get(sinceStorageAtom),
  (_get, set, since: WebhookSince | null) => set(sinceStorageAtom, since),
);
