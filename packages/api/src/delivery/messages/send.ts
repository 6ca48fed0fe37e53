// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin} and ${portal} are the placeholders the sender fills.
import { formatPin, type SmsGateway } from '@medlocker/core';
import type { AppDeps } from '../../deps.ts';
import type { JobPayloads } from '../../jobs/catalogue.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { PermanentJobError } from '../../jobs/runner.ts';
import { emitMessageStatus, messageStatusOf } from '../webhooks/emit.ts';
import { channelNames, type Gateway, GatewayError, type ProviderName, toE164 } from './gateway.ts';
import { localGateway } from './gateways/local.ts';
import type { MessagePort, Publish } from './port.ts';
import { queueReconciliation, reportsEveryMessage, UNCONFIRMED, UNCONFIRMED_RESEND } from './reconcile.ts';
import { reportUrlFor } from './report-urls.ts';
import { clearHandOver, lockMessage, type MessageRow, RESEND, type Tx, updateMessageDelivery } from './repository.ts';

/** The business's `smsGateway` setting as the gateway adapters name their provider. */
const smsProviders: Record<SmsGateway, ProviderName> = {
  aws: 'aws-sms',
  messagebird: 'messagebird',
  thesmsworks: 'smsworks',
};

/** What each provider needs configured, for the reason a production send without it fails. */
const needs: Record<ProviderName, string> = {
  'aws-sms': 'AWS_REGION',
  messagebird: 'MESSAGEBIRD_ACCESS_KEY',
  smsworks: 'SMSWORKS_JWT',
  whatsapp: 'WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID',
  email: 'SMTP_URL',
  local: '',
};

/** Whom a message went to, as the timeline shows it: a phone as `07••• •••123`, an email as `a•••@example.com`. */
export function maskRecipient(recipient: string): string {
  if (recipient.includes('@')) {
    const [local = '', domain = ''] = recipient.split('@');
    return `${local.slice(0, 1)}•••@${domain}`;
  }
  const e164 = toE164(recipient) ?? recipient;
  const national = e164.startsWith('+44') ? `0${e164.slice(3)}` : e164;
  return `${national.slice(0, 2)}••• •••${national.slice(-3)}`;
}

/** An SMS sender ID from the business's name when it set none: letters, digits and spaces, at most 11. */
export function senderFrom(name: string | null | undefined, senderName: string | null): string {
  if (senderName) return senderName;
  const cleaned = (name ?? '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .slice(0, 11)
    .trim();
  return cleaned || 'MedLocker';
}

export type SendOptions = {
  gateways: Partial<Record<ProviderName, Gateway>>;
  /** The areas' side: the message's order, the business's settings, short links. */
  areas: MessagePort;
  /** Tests only: runs after the hand-over mark is committed and before the gateway is called (a worker dying there). */
  beforeSend?: (messageId: string) => Promise<void> | void;
  /** Tests only: runs after the gateway answered and before the send is recorded (a worker dying there). */
  afterSend?: (messageId: string) => Promise<void> | void;
};

/**
 * How long another worker waits before it takes over a send whose worker stopped renewing it (died):
 * an attempt is two short transactions and one gateway call (at most SEND_TIMEOUT_MS), and the runner
 * renews the lease while it runs, so this is what a killed worker's messages wait before another
 * worker takes them (docs/PERFORMANCE.md "Messages").
 */
export const MESSAGE_SEND_LEASE_MS = 10_000;

/** The runner's handler for `message.send` jobs (payload `{ messageId }`, queued by outbox/index.ts). */
export const messageSendHandler = (deps: AppDeps, options: SendOptions): JobHandler<JobPayloads['message.send']> => ({
  leaseMs: MESSAGE_SEND_LEASE_MS,
  run: async ({ job, dependsOn, complete }) => {
    const { messageId } = job.payload;
    await sendMessage(
      deps,
      options,
      messageId,
      { lastAttempt: job.attempts >= job.maxAttempts, attempts: job.attempts, complete },
      dependsOn,
    );
  },
});

type Prepared =
  | { kind: 'done'; publish?: Publish | undefined }
  | { kind: 'stale'; publish?: Publish | undefined }
  | {
      kind: 'send';
      message: MessageRow;
      gateway: Gateway;
      sender: string;
      body: string;
      /** The hand-over mark this attempt set: a retryable failure clears only that. */
      mark: { sentAt: number; providerStatus: string | null };
    }
  | { kind: 'refused'; message: MessageRow; provider: ProviderName; reason: string };

/**
 * Sends one outbox message, at most once (docs/decisions/messaging.md "Sending messages"). Before the gateway is
 * called the message is marked handed over (`sent_at`, `provider`) in a committed transaction; a retry
 * that finds it so marked without a provider id knows an earlier attempt died after (or while) sending
 * and records it as sent rather than sending again. Retryable gateway failures clear the mark and throw
 * (the runner retries); permanent ones fail the message and the order's status and end the job dead.
 */
export async function sendMessage(
  deps: AppDeps,
  options: SendOptions,
  messageId: string,
  attempt: {
    lastAttempt?: boolean;
    attempts?: number;
    /** Marks the runner's job done in the transaction that records the outcome (jobs/runner.ts `complete`). */
    complete?: (tx: Tx) => Promise<void>;
  } = {},
  /** Told the gateway before it is called: the runner paces retries by how that gateway is doing. */
  dependsOn?: (service: string) => void,
): Promise<void> {
  const { areas } = options;
  const prepared = await deps.db.transaction().execute(async (tx): Promise<Prepared> => {
    const outcome = await prepare(tx);
    // Nothing to send (already sent, recorded, or stale): the job ends with what this transaction records.
    if (outcome.kind === 'done' || outcome.kind === 'stale') await attempt.complete?.(tx);
    return outcome;
  });
  async function prepare(tx: Tx): Promise<Prepared> {
    const message = await lockMessage(tx, messageId);
    // A message that failed before any provider took it (refused here, or given up after retries) is
    // sent when staff retry its dead job; one a provider took or reported on never is.
    const neverHandedOver = message?.status === 'failed' && message.sent_at === null;
    if (!message || message.provider_message_id !== null || (message.status !== 'pending' && !neverHandedOver))
      return { kind: 'done' };
    const now = deps.now();
    const order = message.order_id
      ? await areas.orderToMessage(tx, message.order_id, message.template_key, now)
      : undefined;
    // Already recorded unconfirmed (this job ran again after its worker died before finishing it): its
    // check is queued, nothing more to record.
    if (message.provider_status === UNCONFIRMED || message.provider_status === UNCONFIRMED_RESEND)
      return { kind: 'done' };
    if (message.sent_at !== null) {
      // An earlier attempt handed it to the gateway and died before recording the answer: it may well
      // have arrived, and a PIN sent twice is worse than a status we cannot confirm now. Its delivery
      // report will say (messaging/reconcile.ts): none after the grace period, and it is sent once more.
      const publish = await recordUnconfirmed(tx, deps, areas, message, message.provider ?? 'local');
      return { kind: 'done', publish };
    }
    const stale = order?.stale ?? null;
    if (order && stale) {
      // Nothing was handed to a gateway: the message ends failed with the reason, the order's last
      // status stays that of its last real message, and the timeline says why the patient heard nothing.
      await updateMessageDelivery(tx, message.id, {
        status: 'failed',
        provider_status: 'NOT_SENT',
        last_error: stale,
        updated: now,
      });
      await emitMessageStatus(tx, deps, message, 'failed', stale);
      const publish = await areas.recordOnOrder(
        tx,
        message,
        {
          event: {
            by: 'message.send',
            code: 'MESSAGE_SUPPRESSED',
            words: stale,
            data: { messageId: message.id, templateKey: message.template_key, reason: 'stale' },
          },
        },
        now,
      );
      return { kind: 'stale', publish };
    }
    const settings = message.business_id ? await areas.senderSettings(tx, message.business_id) : null;
    const provider: ProviderName =
      message.channel === 'email'
        ? 'email'
        : message.channel === 'whatsapp'
          ? 'whatsapp'
          : smsProviders[settings?.smsGateway ?? 'aws'];
    let gateway = options.gateways[provider];
    if (!gateway) {
      if (deps.config.production) {
        return {
          kind: 'refused',
          message,
          provider,
          reason: `No ${provider} gateway is configured (${needs[provider]})`,
        };
      }
      gateway = localGateway;
    }
    let body = message.body;
    if (body.includes('${pin}')) {
      const pin = order ? order.pin() : null;
      if (pin === null) {
        return { kind: 'refused', message, provider, reason: 'The order has no PIN to send' };
      }
      body = body.replaceAll('${pin}', formatPin(pin));
    }
    if (body.includes('${portal}')) {
      const link = await areas.portalLink(tx, { orderId: order?.id ?? null, businessId: message.business_id });
      body = body.replaceAll('${portal}', link);
    }
    await updateMessageDelivery(tx, message.id, {
      sent_at: now,
      provider: gateway.provider,
      attempts: message.attempts + 1,
      updated: now,
    });
    const sender = senderFrom(order?.businessName, settings?.smsSenderName ?? null);
    const mark = { sentAt: now, providerStatus: message.provider_status };
    return { kind: 'send', message, gateway, sender, body, mark };
  }
  if (prepared.kind === 'done' || prepared.kind === 'stale') {
    await prepared.publish?.();
    return;
  }
  if (prepared.kind === 'refused') {
    await recordFailed(deps, areas, prepared.message, prepared.provider, prepared.reason);
    throw new PermanentJobError(prepared.reason);
  }

  const { message, gateway } = prepared;
  await options.beforeSend?.(message.id);
  dependsOn?.(gateway.provider);
  let result: { provider: ProviderName; providerMessageId: string };
  try {
    result = await gateway.send({
      to: message.recipient,
      body: prepared.body,
      sender: prepared.sender,
      reference: message.id,
      reportUrl: reportUrlFor(deps.config, gateway.provider, message.id),
      ...(message.subject ? { subject: message.subject } : {}),
    });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.retryable && error.maybeSent && reportsEveryMessage(deps.config, gateway.provider)) {
      // No answer in time (or the connection dropped after the request went): it may be on its way.
      // Recorded unconfirmed, as after a crash: its report confirms it, or after the grace period with
      // no report it is sent once more (messaging/reconcile.ts). Never sent again blindly.
      const publish = await deps.db.transaction().execute(async (tx) => {
        const locked = await lockMessage(tx, message.id);
        const ours =
          locked &&
          locked.provider_message_id === null &&
          locked.status === 'pending' &&
          Number(locked.sent_at) === prepared.mark.sentAt &&
          locked.provider_status === prepared.mark.providerStatus;
        await attempt.complete?.(tx);
        if (!ours) return undefined;
        return recordUnconfirmed(tx, deps, areas, locked, gateway.provider);
      });
      deps.logger.warn('gateway gave no answer: message recorded unconfirmed', {
        messageId: message.id,
        reason: error.reason,
      });
      await publish?.();
      return;
    }
    if (error.retryable) {
      // It did not go through (or the provider said try later): clear the hand-over mark so the retry
      // sends. Only this attempt's mark: when this worker's lease ran out during the call, another worker
      // may already have recorded the message unconfirmed (and queued its check); that stands.
      const cleared = await clearHandOver(deps.db, message.id, prepared.mark, {
        last_error: error.reason,
        updated: deps.now(),
      });
      if (!cleared) {
        deps.logger.warn('gateway failure after another worker took the message over', {
          messageId: message.id,
          reason: error.reason,
        });
        return;
      }
      if (!attempt.lastAttempt) throw error;
      // The runner's last try: the message failed, and the order and its timeline say so (a staff retry
      // of the dead job sends it again).
      const tries = attempt.attempts ?? 1;
      const reason = `${error.reason} (gave up after ${tries} ${tries === 1 ? 'attempt' : 'attempts'})`;
      await recordFailed(deps, areas, message, gateway.provider, reason, 'GAVE_UP');
      throw new PermanentJobError(reason);
    }
    // A refusal the provider answered (HTTP 4xx, SMTP 5xx) means it took nothing: clear the hand-over
    // mark so a staff retry of the dead job sends it. A 2xx we could not read keeps the mark (it may
    // have gone), and the retry records it unconfirmed instead of sending the PIN again.
    const refused = error.httpStatus !== null && error.httpStatus >= 400;
    await recordFailed(deps, areas, message, gateway.provider, error.reason, 'REFUSED', refused);
    throw new PermanentJobError(error.reason);
  }
  await options.afterSend?.(message.id);
  // The answer and the job's end in one transaction (one commit): a worker dying before it commits
  // leaves both undone, and the job's next run finds the message handed over and unconfirmed.
  const publish = await deps.db.transaction().execute(async (tx) => {
    const locked = await lockMessage(tx, message.id);
    await attempt.complete?.(tx);
    if (!locked || locked.provider_message_id !== null) return undefined;
    return recordSent(tx, deps, areas, locked, result);
  });
  await publish?.();
}

/**
 * Records a message as handed to its provider: the provider's id, the status (pending until a delivery
 * report; success at once for email and the local gateway, which report nothing later), the order's
 * last status and a timeline event naming the masked recipient.
 */
async function recordSent(
  tx: Tx,
  deps: AppDeps,
  areas: MessagePort,
  message: MessageRow,
  result: { provider: ProviderName | string; providerMessageId: string | null; unconfirmed?: string },
): Promise<Publish | undefined> {
  const now = deps.now();
  const final = result.provider === 'email' || result.provider === 'local';
  const status = final ? 'success' : 'pending';
  await updateMessageDelivery(tx, message.id, {
    provider: result.provider,
    provider_message_id: result.providerMessageId,
    provider_status:
      result.providerMessageId === null ? (result.unconfirmed ?? UNCONFIRMED) : final ? 'DELIVERED' : 'SENT',
    status,
    sent_at: message.sent_at ?? now,
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
          templateKey: message.template_key,
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
 * a resend's as unconfirmed again, and queues the check that its delivery report settles.
 */
async function recordUnconfirmed(
  tx: Tx,
  deps: AppDeps,
  areas: MessagePort,
  message: MessageRow,
  provider: ProviderName | string,
): Promise<Publish | undefined> {
  const publish = await recordSent(tx, deps, areas, message, {
    provider,
    providerMessageId: null,
    unconfirmed: message.provider_status === RESEND ? UNCONFIRMED_RESEND : UNCONFIRMED,
  });
  await queueReconciliation(tx, deps, message, provider);
  return publish;
}

/**
 * A permanent failure (refused here or by the provider, or given up after the last retry): the message
 * failed with the reason, the order's status failed, a timeline event.
 */
async function recordFailed(
  deps: AppDeps,
  areas: MessagePort,
  message: MessageRow,
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
          data: { messageId: message.id, channel: message.channel, provider, templateKey: message.template_key },
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
