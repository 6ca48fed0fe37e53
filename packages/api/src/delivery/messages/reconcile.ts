import type { Config } from '../../config/config.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { JobPayloads } from '../../jobs/catalogue.ts';
import { enqueueJob } from '../../jobs/repository.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { MESSAGE_MAX_ATTEMPTS } from '../../outbox/index.ts';
import { emitMessageStatus } from '../webhooks/emit.ts';
import { channelNames, type ProviderName } from './gateways/gateway.ts';
import type { MessagePort, Publish } from './port.ts';
import { lockMessage, type QueuedMessage, RESEND, type Tx, updateMessageDelivery } from './repository.ts';

/** `provider_status` of a message whose sender died between handing it over and recording the answer. */
export const UNCONFIRMED = 'UNCONFIRMED';
/** The same, for the one resend after an unconfirmed send: not sent a third time. */
export const UNCONFIRMED_RESEND = 'UNCONFIRMED_RESEND';

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
 * Queues the check of an unconfirmed message after the grace period (one per message at a time), in the
 * transaction that records it unconfirmed. Nothing for providers that do not report every message.
 */
export async function queueReconciliation(tx: Tx, deps: AppDeps, message: QueuedMessage, provider: string | null) {
  if (!reportsEveryMessage(deps.config, provider)) return;
  const now = deps.now();
  await enqueueJob(
    tx,
    {
      type: RECONCILE_JOB,
      payload: { messageId: message.id },
      businessId: message.businessId,
      runAfter: now + deps.config.messagesUnconfirmedGraceMs,
      dedupeKey: `${RECONCILE_JOB}:${message.id}`,
    },
    now,
  );
}

/**
 * The check of an unconfirmed message, its grace period over (docs/decisions/messaging.md "Unconfirmed messages
 * are reconciled by delivery reports"), with the message locked (a report arriving meanwhile waits, and
 * then finds what this decided):
 * - a report arrived (the provider's id adopted, or the status moved on): nothing to do;
 * - none after the first send: the provider never had it (every provider we reconcile reports every
 *   message it accepted). The mark is cleared and the message queued to be sent again (same id, same
 *   reference), with a timeline event; a report of the first send that still comes before the resend
 *   is handed over finds it (RESEND) and the resend sends nothing;
 * - none after the resend either: the message fails for staff to see ("may not have arrived") rather
 *   than going round again; a late report still sets it delivered.
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
      (message.providerStatus !== UNCONFIRMED && message.providerStatus !== UNCONFIRMED_RESEND)
    )
      return { outcome: 'confirmed' as const };
    const now = deps.now();
    const gateway = gatewayNames[message.provider ?? ''] ?? message.provider ?? 'the gateway';
    const name = channelNames[message.channel];
    // Mid-sentence: "the SMS", "the WhatsApp message", "the email".
    const what = message.channel === 'email' ? 'email' : name;
    const data = { messageId: message.id, channel: message.channel, provider: message.provider };
    if (message.providerStatus === UNCONFIRMED) {
      const words = `No word from ${gateway} about the ${what} sent before a restart: sent again`;
      await updateMessageDelivery(tx, message.id, {
        sent_at: null,
        provider_status: RESEND,
        last_error: words,
        updated: now,
      });
      await enqueueJob(
        tx,
        {
          type: 'message.send',
          payload: { messageId: message.id },
          businessId: message.businessId,
          dedupeKey: message.id,
          maxAttempts: MESSAGE_MAX_ATTEMPTS,
          runAfter: now,
        },
        now,
      );
      const event = { by: 'message.reconcile', code: 'MESSAGE_RESENT', words, data };
      return { outcome: 'resent' as const, publish: await areas.recordOnOrder(tx, message, { event }, now) };
    }
    const reason = `no word from ${gateway} after it was sent again following a restart; it may not have arrived`;
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
  });
  const publish: Publish | undefined = 'publish' in result ? result.publish : undefined;
  await publish?.();
  return result.outcome;
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
