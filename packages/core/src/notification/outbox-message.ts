import { type } from 'arktype';
import { DeliveryStatus } from '../order/statuses.ts';
import { Id, Timestamp } from '../stamps.ts';

/** How a queued message travels. */
export const messageChannels = ['sms', 'email', 'whatsapp'] as const;
export const MessageChannel = type.enumerated(...messageChannels);
export type MessageChannel = typeof MessageChannel.infer;

/**
 * A message in a business's outbox (SPEC §4 delivery status pending → success or failed), as support
 * reads it. `body` is null when it is hidden: the message may carry a secret (a sign-up code, a
 * collection PIN), so only wording known to hold none is ever sent back (docs/decisions/messaging.md).
 */
export const OutboxMessage = type({
  id: Id,
  channel: MessageChannel,
  /** The mobile number or email address it goes to. */
  recipient: 'string',
  /** What the message is: `alarm.EM_0003`, `signUpMobileCode`, `orderReady`… */
  templateKey: 'string',
  subject: 'string | null',
  body: 'string | null',
  status: DeliveryStatus,
  attempts: 'number.integer >= 0',
  lastError: 'string | null',
  created: Timestamp,
  sentAt: 'number | null',
});
export type OutboxMessage = typeof OutboxMessage.infer;
