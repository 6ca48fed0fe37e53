import { counted } from '@medlocker/core';
import type { Config } from '../../config/config.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { JobPayloads } from '../../jobs/catalogue.ts';
import { enqueueJob } from '../../jobs/repository.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { queueSend } from '../../outbox/index.ts';
import { insertBusinessNotification } from '../../staff-notifications/repository.ts';
import { emitMessageStatus } from '../webhooks/emit.ts';
import { channelNames, type ProviderName } from './gateways/gateway.ts';
import type { MessagePort, Publish } from './port.ts';
import { maskRecipient } from './recipient-words.ts';
import { lockMessage, type QueuedMessage, RESEND, type Tx, updateMessageDelivery } from './repository.ts';

/** `provider_status` of a message handed over with no answer from its provider (a restart, a cut connection). */
export const UNCONFIRMED = 'UNCONFIRMED';

/** The longest wait between two checks of a message that keeps getting no word. */
const MAX_CHECK_DELAY_MS = 60 * 60_000;
/** A message without word for this long is given up: failed for staff, who can send it again. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

/** How long the check after the n-th send without word waits: the grace period, doubled each time, at most an hour. */
export const checkDelayMs = (config: Config, sends: number): number =>
  Math.min(
    Math.max(MAX_CHECK_DELAY_MS, config.messagesUnconfirmedGraceMs),
    config.messagesUnconfirmedGraceMs * 2 ** Math.max(0, sends - 1),
  );

/** The runner job that looks at an unconfirmed message once its grace period is over. */
export const RECONCILE_JOB = 'message.reconcile' as const;

const gatewayNames: Record<string, string> = {
  smsworks: 'The SMS Works',
  messagebird: 'MessageBird',
  'aws-sms': 'AWS',
  whatsapp: 'WhatsApp',
};
/**
 * Whether this provider reports every message it accepted to us, so that silence after the grace period
 * means it never had the message: The SMS Works and MessageBird when they are given a report URL (needs
 * PUBLIC_URL), AWS when its configuration set sends events (and PUBLIC_URL for the SNS subscription),
 * WhatsApp when its webhooks can be checked (app secret). Email (SMTP has no reports) and the local
 * gateway never: an unconfirmed email stays sent at most once.
 */
export function reportsEveryMessage(config: Config, provider: ProviderName | string | null): boolean {
  if (!config.publicUrls[0]) return false;
  switch (provider) {
    case 'smsworks':
    case 'messagebird':
      return true;
    case 'aws-sms':
      return config.gateways.awsSms.configurationSet !== undefined;
    case 'whatsapp':
      return config.gateways.whatsApp.appSecret !== undefined;
    default:
      return false;
  }
}

/**
 * Queues the check of an unconfirmed message after `checkDelayMs` (one per message at a time), in the
 * transaction that records it unconfirmed. Nothing for providers that do not report every message.
 */
export async function queueReconciliation(
  tx: Tx,
  deps: AppDeps,
  message: QueuedMessage,
  provider: string | null,
  sends: number,
) {
  if (!reportsEveryMessage(deps.config, provider)) return;
  const now = deps.now();
  await enqueueJob(
    tx,
    {
      type: RECONCILE_JOB,
      payload: { messageId: message.id },
      businessId: message.businessId,
      runAfter: now + checkDelayMs(deps.config, sends),
      dedupeKey: `${RECONCILE_JOB}:${message.id}`,
    },
    now,
  );
}

/**
 * The check of an unconfirmed message, its wait over (docs/decisions/messaging.md "Unconfirmed messages
 * are reconciled by delivery reports"), with the message locked (a report arriving meanwhile waits, and
 * then finds what this decided):
 * - a report arrived (the provider's id adopted, or the status moved on): nothing to do;
 * - none: the provider never had it (every provider we reconcile reports every message it accepted), so
 *   sending again is as safe the third time as the second. The mark is cleared and the message queued
 *   to be sent again (same id, same reference), with a timeline event; a report of an earlier send that
 *   still comes before the resend is handed over finds it (RESEND) and the resend sends nothing. Its
 *   order ending meanwhile stops it (the sender finds it stale). The next check waits twice as long;
 * - none for `messagesUndeliveredAlertMs`: staff are told once (a notification, the order's status),
 *   and it is still sent again;
 * - none for a day: it fails for staff to see; a late report still sets it delivered.
 */
export async function reconcileMessage(
  deps: AppDeps,
  areas: MessagePort,
  messageId: string,
): Promise<'confirmed' | 'resent' | 'failed'> {
  const result = await deps.db.transaction().execute(async (tx) => {
    const message = await lockMessage(tx, messageId);
    if (
      !message ||
      message.providerMessageId !== null ||
      message.status !== 'pending' ||
      message.providerStatus !== UNCONFIRMED
    )
      return { outcome: 'confirmed' as const };
    const now = deps.now();
    if (now - message.created >= GIVE_UP_AFTER_MS) return giveUp(tx, deps, areas, message, now);
    const publish = await sendAgain(tx, areas, message, now);
    const alerted =
      message.undeliveredAlertedAt === null && now - message.created >= deps.config.messagesUndeliveredAlertMs
        ? await tellStaff(tx, areas, message, now)
        : undefined;
    return {
      outcome: 'resent' as const,
      publish: async () => {
        await publish?.();
        await alerted?.();
      },
    };
  });
  const publish: Publish | undefined = 'publish' in result ? result.publish : undefined;
  await publish?.();
  return result.outcome;
}

/** Words about a message for its timeline: who sends it, and what it is mid-sentence. */
function wordsOf(message: QueuedMessage) {
  const gateway = gatewayNames[message.provider ?? ''] ?? message.provider ?? 'the gateway';
  const name = channelNames[message.channel];
  // Mid-sentence: "the SMS", "the WhatsApp message", "the email".
  const what = message.channel === 'email' ? 'email' : name;
  const data = { messageId: message.id, channel: message.channel, provider: message.provider };
  return { gateway, name, what, data };
}

/** No word from the provider: the message is queued to be sent again at once. */
async function sendAgain(tx: Tx, areas: MessagePort, message: QueuedMessage, now: number) {
  const { gateway, what, data } = wordsOf(message);
  const sends = message.unconfirmedSends;
  const words =
    sends <= 1
      ? `No word from ${gateway} about the ${what} sent before a restart: sent again`
      : `No word from ${gateway} about the ${what} after ${sends} sends: sent again`;
  await updateMessageDelivery(tx, message.id, {
    sent_at: null,
    provider_status: RESEND,
    last_error: words,
    updated: now,
  });
  await queueSend(tx, message, now, now);
  return areas.recordOnOrder(
    tx,
    message,
    { event: { by: 'message.reconcile', code: 'MESSAGE_RESENT', words, data } },
    now,
  );
}

/**
 * The message has not arrived after the set time: its order shows it (status failed, the words say it
 * is still being sent), its timeline says so, and the business's staff get a notification. Once.
 */
async function tellStaff(tx: Tx, areas: MessagePort, message: QueuedMessage, now: number) {
  const { gateway, name, data } = wordsOf(message);
  const minutes = Math.round((now - message.created) / 60_000);
  const details = `not confirmed by ${gateway} after ${counted(minutes, 'minute')}; still being sent until it is or the order ends`;
  await updateMessageDelivery(tx, message.id, { undelivered_alerted_at: now });
  const publish = await areas.recordOnOrder(
    tx,
    message,
    {
      delivery: { status: 'failed', providerStatus: 'not arrived', details },
      event: { by: 'message.reconcile', code: 'MESSAGE_NOT_ARRIVED', words: `${name} ${details}`, data },
    },
    now,
  );
  if (message.businessId) {
    await insertBusinessNotification(tx, {
      businessId: message.businessId,
      level: 'warn',
      title: `${name} not arrived: ${maskRecipient(message.recipient)}`,
      body:
        `The ${name} to ${maskRecipient(message.recipient)} has had no word from ${gateway} for ` +
        `${counted(minutes, 'minute')}. MedLocker keeps sending it until ${gateway} confirms it or the order ends. ` +
        'If the patient is waiting, check their number or call them.',
      details: { messageId: message.id, orderId: message.orderId, channel: message.channel },
      now,
    });
  }
  return publish;
}

/** No word for a day of sending: the message fails for staff, who can send it again. */
async function giveUp(tx: Tx, deps: AppDeps, areas: MessagePort, message: QueuedMessage, now: number) {
  const { gateway, name, data } = wordsOf(message);
  const sends = message.unconfirmedSends;
  const reason = `no word from ${gateway} in a day of sending it (${counted(sends, 'send')}); it may not have arrived`;
  await updateMessageDelivery(tx, message.id, { status: 'failed', last_error: reason, updated: now });
  const publish = await areas.recordOnOrder(
    tx,
    message,
    {
      delivery: { status: 'failed', providerStatus: 'failed', details: reason },
      event: { by: 'message.reconcile', code: 'MESSAGE_FAILED', words: `${name} failed: ${reason}`, data },
    },
    now,
  );
  // After the order's row: the integration client's row is locked last (docs/decisions/integration.md "Integration events").
  await emitMessageStatus(tx, deps, message, 'failed', reason);
  return { outcome: 'failed' as const, publish };
}

/** The runner's handler for `message.reconcile` jobs (payload `{ messageId }`). */
export const messageReconcileHandler = (
  deps: AppDeps,
  areas: MessagePort,
): JobHandler<JobPayloads['message.reconcile']> => ({
  run: async ({ job }) => {
    const { messageId } = job.payload;
    const outcome = await reconcileMessage(deps, areas, messageId);
    if (outcome !== 'confirmed') deps.logger.warn('unconfirmed message reconciled', { messageId, outcome });
  },
});
