import type { AppDeps } from '../../context/deps.ts';
import { emitMessageStatus, messageStatusOf } from '../webhooks/emit.ts';
import { channelNames, type ProviderName } from './gateways/gateway.ts';
import type { MessagePort, Publish } from './port.ts';
import { maskRecipient } from './recipient-words.ts';
import { queueReconciliation, UNCONFIRMED } from './reconcile.ts';
import { type QueuedMessage, type Tx, updateMessageDelivery } from './repository.ts';

/*
 * What a send attempt records about its message once it knows: sent, sent but unconfirmed, or failed,
 * each on the message, its order (status and timeline) and the integration's message.status event.
 */

/**
 * Records a message as handed to its provider: the provider's id, the status (pending until a delivery
 * report; success at once for email and the local gateway, which report nothing later), the order's
 * last status and a timeline event naming the masked recipient.
 */
export async function recordSent(
  tx: Tx,
  deps: AppDeps,
  areas: MessagePort,
  message: QueuedMessage,
  result: { provider: ProviderName | string; providerMessageId: string | null },
): Promise<Publish | undefined> {
  const now = deps.now();
  const final = result.provider === 'email' || result.provider === 'local';
  const status = final ? 'success' : 'pending';
  await updateMessageDelivery(tx, message.id, {
    provider: result.provider,
    provider_message_id: result.providerMessageId,
    provider_status: result.providerMessageId === null ? UNCONFIRMED : final ? 'DELIVERED' : 'SENT',
    status,
    sent_at: message.sentAt ?? now,
    updated: now,
  });
  const what = channelNames[message.channel];
  const words =
    result.providerMessageId === null
      ? `${what} sent to ${maskRecipient(message.recipient)} (the sender stopped before the provider's answer was recorded)`
      : `${what} sent to ${maskRecipient(message.recipient)}${result.provider === 'local' ? ' (local gateway: not really sent)' : ''}`;
  const publish = await areas.recordOnOrder(
    tx,
    message,
    {
      delivery: { status, providerStatus: 'sent', details: null },
      event: {
        by: 'message.send',
        code: 'MESSAGE_SENT',
        words,
        data: {
          messageId: message.id,
          channel: message.channel,
          provider: result.provider,
          templateKey: message.templateKey,
        },
      },
    },
    now,
  );
  // After the order's row: the integration client's row is locked last (docs/decisions/integration.md "Integration events").
  await emitMessageStatus(tx, deps, message, messageStatusOf(status));
  return publish;
}

/**
 * Records a message handed over with no provider answer (a crash, or no answer in time) as unconfirmed,
 * a resend's as unconfirmed again (one more send without word), and queues the check that its delivery
 * report settles.
 */
export async function recordUnconfirmed(
  tx: Tx,
  deps: AppDeps,
  areas: MessagePort,
  message: QueuedMessage,
  provider: ProviderName | string,
): Promise<Publish | undefined> {
  const publish = await recordSent(tx, deps, areas, message, { provider, providerMessageId: null });
  const sends = message.unconfirmedSends + 1;
  await updateMessageDelivery(tx, message.id, { unconfirmed_sends: sends });
  await queueReconciliation(tx, deps, message, provider, sends);
  return publish;
}

/**
 * A permanent failure (refused here or by the provider, or given up after the last retry): the message
 * failed with the reason, the order's status failed, a timeline event.
 */
export async function recordFailed(
  deps: AppDeps,
  areas: MessagePort,
  message: QueuedMessage,
  provider: ProviderName,
  reason: string,
  providerStatus: 'REFUSED' | 'GAVE_UP' = 'REFUSED',
  clearHandOver = false,
): Promise<void> {
  const now = deps.now();
  const publish = await deps.db.transaction().execute(async (tx) => {
    await updateMessageDelivery(tx, message.id, {
      ...(clearHandOver ? { sent_at: null } : {}),
      status: 'failed',
      provider,
      provider_status: providerStatus,
      last_error: reason,
      updated: now,
    });
    const published = await areas.recordOnOrder(
      tx,
      message,
      {
        delivery: { status: 'failed', providerStatus: 'failed', details: reason },
        event: {
          by: 'message.send',
          code: 'MESSAGE_FAILED',
          words: `${channelNames[message.channel]} failed: ${reason}`,
          data: { messageId: message.id, channel: message.channel, provider, templateKey: message.templateKey },
        },
      },
      now,
    );
    // After the order's row: the integration client's row is locked last (docs/decisions/integration.md "Integration events").
    await emitMessageStatus(tx, deps, message, 'failed', reason);
    return published;
  });
  await publish?.();
}
