import { type } from 'arktype';
import { IntegrationEvent, integrationEventTypes, WEBHOOK_TEST_EVENT } from '../integration/events.ts';
import { Timestamp } from '../stamps.ts';
import { validationMessages } from '../validation/catalogue.ts';
import { TimeInput } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byBusinessId, byId } from './method-builders.ts';
import { Paging } from './paging.ts';

/*
 * The webhook delivery console: every webhook message of a business with each attempt to
 * send it, replays, a test event and the endpoint's state. The dispatcher (the api's webhooks/) sends
 * them; these methods only read its tables and ask it to send again.
 */

/** Pages of deliveries are 50 long; `nextToken` is an opaque keyset cursor on the delivery id (newest first). */
export const webhooksPageSize = 50;

/** Where a delivery stands: waiting for its next attempt, delivered (a 2xx), or given up on. */
export const webhookOutcomes = ['pending', 'succeeded', 'failed'] as const;
export const WebhookOutcome = type.enumerated(...webhookOutcomes);
export type WebhookOutcome = typeof WebhookOutcome.infer;

/** Every type a delivery can carry: the integration events and the console's test event. */
export const webhookEventTypes = [...integrationEventTypes, WEBHOOK_TEST_EVENT] as const;
export const WebhookEventType = type.enumerated(...webhookEventTypes);
export type WebhookEventType = typeof WebhookEventType.infer;

/** Why an attempt was made: the retry schedule, a replay asked for by staff, or a test event. */
export const WebhookAttemptTrigger = type.enumerated('schedule', 'replay', 'test');
export type WebhookAttemptTrigger = typeof WebhookAttemptTrigger.infer;

/** One webhook message to the business's endpoint; its id is the `webhook-id` on every attempt. */
export const WebhookDelivery = type({
  id: 'string',
  eventType: 'string',
  /** The order, machine or message it is about: deliveries with the same key go in order. */
  orderingKey: 'string | null',
  status: WebhookOutcome,
  attempts: 'number.integer >= 0',
  /** When the next attempt is due (pending only; else null). */
  nextAttemptAt: 'number | null',
  lastAttemptAt: 'number | null',
  /** The HTTP status of the last attempt (null when it got no answer). */
  lastStatus: 'number | null',
  lastError: 'string | null',
  deliveredAt: 'number | null',
  created: Timestamp,
});
export type WebhookDelivery = typeof WebhookDelivery.infer;

/** One try of a delivery, as the delivery console shows it. */
export const WebhookAttempt = type({
  id: 'string',
  attemptedAt: Timestamp,
  trigger: WebhookAttemptTrigger,
  /** The HTTP status answered; null for a timeout, a refused address or a connection error. */
  status: 'number | null',
  latencyMs: 'number.integer >= 0',
  error: 'string | null',
  /** The first 1 KB of the response body. */
  responseExcerpt: 'string | null',
});
export type WebhookAttempt = typeof WebhookAttempt.infer;

/** The business's webhook endpoint, for the console's page header. */
export const WebhookEndpoint = type({
  /** The integration client (for `integration/generateWebhookSecret`). */
  clientId: 'string',
  /** Null: the client has no webhook URL, so nothing is delivered. */
  url: 'string | null',
  /** Set when the endpoint was disabled (5 days of failures, or by staff); null while enabled. */
  disabledAt: 'number | null',
  /** The start of an unbroken run of failed attempts; null after any success. */
  failingSince: 'number | null',
  pendingCount: 'number.integer >= 0',
  failedCount: 'number.integer >= 0',
  lastSuccessAt: 'number | null',
});
export type WebhookEndpoint = typeof WebhookEndpoint.infer;

const invalidChoice = { message: validationMessages.INVALID_FORMAT, validationId: 'INVALID_FORMAT' } as const;

export const webhooks = defineArea({
  getEndpoint: byBusinessId({
    output: type({ endpoint: WebhookEndpoint.or('null') }),
    access: staff({ business: 'businessId' }, true),
    summary:
      "The business's webhook endpoint: URL, disabled or failing since, pending count, last success (null without an integration client).",
  }),
  listDeliveries: {
    input: type({
      businessId: Id,
      /** Only deliveries of this event type. */
      'eventType?': WebhookEventType.configure(invalidChoice),
      /** Only deliveries with this outcome. */
      'outcome?': WebhookOutcome.configure(invalidChoice),
      /** Only deliveries made at or after this time (ms since the epoch). */
      'since?': TimeInput,
      ...Paging,
    }),
    output: type({ deliveries: WebhookDelivery.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }, true),
    summary: "A business's webhook deliveries newest first, 50 a page, by event type, outcome and time if given.",
  },
  getDelivery: byId({
    output: type({ delivery: WebhookDelivery, event: IntegrationEvent, attempts: WebhookAttempt.array() }),
    access: staff({ webhookDelivery: 'id' }, true),
    summary:
      'One webhook delivery with the body it sends and every attempt (time, trigger, status, latency, error, response excerpt).',
  }),
  replayDelivery: byId({
    output: type({ delivery: WebhookDelivery }),
    access: staff({ webhookDelivery: 'id' }, true),
    summary:
      'Sends a succeeded or failed delivery again, with the same webhook-id (409 while it is pending or the endpoint is disabled).',
  }),
  replayFailed: {
    input: type({ businessId: Id, since: TimeInput }),
    output: type({ replayed: 'number.integer >= 0' }),
    access: staff({ business: 'businessId' }, true),
    summary:
      'Sends again every failed delivery made at or after `since`; answers how many (409 while the endpoint is disabled).',
  },
  sendTestEvent: byBusinessId({
    output: type({ delivery: WebhookDelivery }),
    access: staff({ business: 'businessId' }, true),
    summary: `Sends a ${WEBHOOK_TEST_EVENT} event to the endpoint (409 without a webhook URL or while the endpoint is disabled).`,
  }),
  enableEndpoint: byBusinessId({
    output: type({ endpoint: WebhookEndpoint }),
    access: staff({ business: 'businessId' }, true),
    summary:
      'Enables a disabled webhook endpoint again; its pending deliveries are sent (409 when it is not disabled).',
  }),
});
