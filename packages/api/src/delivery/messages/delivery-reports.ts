import type { DeliveryStatus } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { emitMessageStatus, messageStatusOf } from '../webhooks/emit.ts';
import { channelNames, type ProviderName } from './gateways/gateway.ts';
import type { MessagePort, Publish, TimelineEntry } from './port.ts';
import { adoptProviderId, lockMessageByProviderId, updateMessageDelivery } from './repository.ts';

/** One delivery report, in our words, whichever provider sent it. */
export type DeliveryReport = {
  provider: ProviderName;
  providerMessageId: string;
  /** The provider's status word, kept as it came (`DELIVERED`, `delivery_failed`, `TEXT_BLOCKED`…). */
  providerStatus: string;
  status: DeliveryStatus;
  /** Why it failed, in the provider's words (shown on the order's timeline); null when it did not. */
  reason: string | null;
  /** The provider's report as it came, for the message's details. */
  details: Record<string, unknown>;
  /** Our message id when the report carries or is addressed to it: it must then be the message found. */
  messageId?: string;
};

/** What became of a report: applied; named no message of ours; or older news than the message already has. */
export type ReportOutcome = 'applied' | 'unknown' | 'stale';

// Each provider's status words, as pending (still on its way), success (delivered) or failed (final).

const smsWorksStatuses: Record<string, DeliveryStatus> = {
  SENT: 'pending',
  QUEUED: 'pending',
  SCHEDULED: 'pending',
  DELIVERED: 'success',
  EXPIRED: 'failed',
  UNDELIVERABLE: 'failed',
  REJECTED: 'failed',
  FAILED: 'failed',
};
const messageBirdStatuses: Record<string, DeliveryStatus> = {
  scheduled: 'pending',
  sent: 'pending',
  buffered: 'pending',
  accepted: 'pending',
  delivered: 'success',
  delivery_failed: 'failed',
  expired: 'failed',
};
const awsPending = new Set(['TEXT_SENT', 'TEXT_PENDING', 'TEXT_QUEUED']);
const whatsAppStatuses: Record<string, DeliveryStatus> = {
  accepted: 'pending',
  sent: 'pending',
  delivered: 'success',
  read: 'success',
  failed: 'failed',
};

/** An unknown status word is news but not an outcome: pending, keeping the word for the record. */
export const smsWorksStatus = (s: string): DeliveryStatus => smsWorksStatuses[s.toUpperCase()] ?? 'pending';
export const messageBirdStatus = (s: string): DeliveryStatus => messageBirdStatuses[s.toLowerCase()] ?? 'pending';
/**
 * AWS event types, with the event's `isFinal`: TEXT_DELIVERED is delivered; TEXT_SUCCESSFUL (accepted by
 * the carrier) is delivered when it is the final event (AWS: "depending on the destination country the
 * TEXT_DELIVERED and TEXT_SUCCESSFUL events may be used interchangeably"), else still on its way; the
 * in-flight ones pending; every other TEXT_* a failure, unless AWS says more news is coming (isFinal false:
 * TEXT_CARRIER_UNREACHABLE and TEXT_UNKNOWN can be temporary).
 */
export const awsSmsStatus = (eventType: string, isFinal?: unknown): DeliveryStatus => {
  if (eventType === 'TEXT_DELIVERED') return 'success';
  if (eventType === 'TEXT_SUCCESSFUL') return isFinal === true ? 'success' : 'pending';
  if (awsPending.has(eventType) || isFinal === false) return 'pending';
  return 'failed';
};
export const whatsAppStatus = (s: string): DeliveryStatus => whatsAppStatuses[s.toLowerCase()] ?? 'pending';

/**
 * Applies one delivery report, in one transaction: the outbox message's status, the provider's word and
 * report; when the message is about an order and is its latest of that kind, the order's
 * `lastNotificationStatus` (SMS, WhatsApp) or `lastEmailStatus`; and, when the message reached an
 * outcome, an order event ("SMS delivered", "SMS failed: <reason>"), a late one about an earlier message too. A report for no message of ours
 * changes nothing (the caller answers 200 so the provider stops sending it); news older than what the
 * message already knows (sent after delivered) is ignored.
 */
export async function applyDeliveryReport(
  deps: AppDeps,
  areas: MessagePort,
  report: DeliveryReport,
): Promise<ReportOutcome> {
  const now = deps.now();
  const result = await deps.db.transaction().execute(async (tx) => {
    const message =
      (await lockMessageByProviderId(tx, report.provider, report.providerMessageId)) ??
      (report.messageId === undefined
        ? undefined
        : await adoptProviderId(tx, report.messageId, report.provider, report.providerMessageId, now));
    if (!message || (report.messageId !== undefined && message.id !== report.messageId)) {
      return { outcome: 'unknown' as const };
    }
    const final = message.status !== 'pending';
    if (final && report.status === 'pending') return { outcome: 'stale' as const };
    const changed = message.status !== report.status;
    await updateMessageDelivery(tx, message.id, {
      status: report.status,
      provider_status: report.providerStatus,
      provider_details: JSON.stringify(report.details),
      ...(report.status === 'failed' && report.reason ? { last_error: report.reason } : {}),
      updated: now,
    });
    // Its integration event goes after the order's row is locked: the client's row is locked last
    // (docs/decisions/integration.md "Integration events").
    const announce = async () => {
      if (changed) {
        const error = report.reason ?? report.providerStatus;
        await emitMessageStatus(tx, deps, message, messageStatusOf(report.status), error);
      }
    };
    if (!message.orderId) {
      await announce();
      return { outcome: 'applied' as const };
    }

    const what = channelNames[message.channel];
    const event: TimelineEntry | undefined =
      changed && report.status !== 'pending'
        ? {
            by: 'delivery-report',
            code: report.status === 'success' ? 'MESSAGE_DELIVERED' : 'MESSAGE_FAILED',
            words:
              report.status === 'success'
                ? `${what} delivered`
                : `${what} failed: ${report.reason ?? report.providerStatus}`,
            data: {
              messageId: message.id,
              channel: message.channel,
              provider: report.provider,
              providerStatus: report.providerStatus,
              templateKey: message.templateKey,
            },
          }
        : undefined;
    // A late report on an earlier message still goes on the timeline, but the order's last status is
    // the later message's to set.
    const delivery = { status: report.status, providerStatus: report.providerStatus, details: report.reason ?? null };
    const publish = await areas.recordOnOrder(tx, message, { delivery, onlyIfLatest: true, event }, now);
    await announce();
    return { outcome: 'applied' as const, publish };
  });
  if (result.outcome === 'unknown') {
    deps.logger.info('delivery report for no message of ours', {
      provider: report.provider,
      providerMessageId: report.providerMessageId,
      providerStatus: report.providerStatus,
    });
  }
  const publish: Publish | undefined = 'publish' in result ? result.publish : undefined;
  await publish?.();
  return result.outcome;
}
