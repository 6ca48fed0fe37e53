// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin} and ${portal} are the placeholders the sender fills.
import { formatPin, type Locale, type SmsGateway } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { emitMessageStatus } from '../webhooks/emit.ts';
import type { Gateway, ProviderName } from './gateways/gateway.ts';
import { localGateway } from './gateways/local.ts';
import type { MessagePort, OrderToMessage, Publish } from './port.ts';
import { senderFrom } from './recipient-words.ts';
import { UNCONFIRMED } from './reconcile.ts';
import { lockMessage, type QueuedMessage, type Tx, updateMessageDelivery } from './repository.ts';
import { recordUnconfirmed } from './send-outcome.ts';

/*
 * The first transaction of a send (delivery/messages/send.ts): whether the message is still to go, which
 * gateway takes it, its words with the PIN and the portal link filled in, and the hand-over mark.
 */

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

/** The hand-over mark an attempt set: a retryable failure clears only that. */
export type HandOverMark = { sentAt: number; providerStatus: string | null };

export type Prepared =
  | { kind: 'done'; publish?: Publish | undefined }
  | { kind: 'stale'; publish?: Publish | undefined }
  | {
      kind: 'send';
      message: QueuedMessage;
      gateway: Gateway;
      sender: string;
      body: string;
      mark: HandOverMark;
      /** WhatsApp: the patient's languages, for the template's. */
      locales?: Locale[];
    }
  | { kind: 'refused'; message: QueuedMessage; provider: ProviderName; reason: string };

type Refused = Extract<Prepared, { kind: 'refused' }>;

/**
 * Locks the message and decides what this attempt does: nothing (already sent, recorded or stale),
 * refuse it, or send it, having marked it handed over (`sent_at`, `provider`) in this transaction.
 */
export async function prepareSend(
  tx: Tx,
  deps: AppDeps,
  gateways: Partial<Record<ProviderName, Gateway>>,
  areas: MessagePort,
  messageId: string,
): Promise<Prepared> {
  const message = await lockMessage(tx, messageId);
  // A message that failed before any provider took it (refused here, or given up after retries) is
  // sent when staff retry its dead job; one a provider took or reported on never is.
  const neverHandedOver = message?.status === 'failed' && message.sentAt === null;
  if (!message || message.providerMessageId !== null || (message.status !== 'pending' && !neverHandedOver))
    return { kind: 'done' };
  const now = deps.now();
  const order = message.orderId ? await areas.orderToMessage(tx, message.orderId, message.templateKey, now) : undefined;
  // Already recorded unconfirmed (this job ran again after its worker died before finishing it): its
  // check is queued, nothing more to record.
  if (message.providerStatus === UNCONFIRMED) return { kind: 'done' };
  if (message.sentAt !== null) {
    // An earlier attempt handed it to the gateway and died before recording the answer: it may well
    // have arrived, and a PIN sent twice is worse than a status we cannot confirm now. Its delivery
    // report will say (reconcile.ts): none after the grace period, and it is sent again.
    const publish = await recordUnconfirmed(tx, deps, areas, message, message.provider ?? 'local');
    return { kind: 'done', publish };
  }
  const stale = order?.stale ?? null;
  if (order && stale) return { kind: 'stale', publish: await suppressStale(tx, deps, areas, message, stale, now) };
  const settings = message.businessId ? await areas.senderSettings(tx, message.businessId) : null;
  const chosen = chooseGateway(deps, gateways, message, settings?.smsGateway ?? 'aws');
  if ('kind' in chosen) return chosen;
  const { gateway } = chosen;
  const body = await renderBody(tx, areas, message, order);
  if (typeof body !== 'string') return { ...body, provider: chosen.provider };
  await updateMessageDelivery(tx, message.id, {
    sent_at: now,
    provider: gateway.provider,
    attempts: message.attempts + 1,
    updated: now,
  });
  const sender = senderFrom(order?.businessName, settings?.smsSenderName ?? null);
  const mark = { sentAt: now, providerStatus: message.providerStatus };
  // The business's default language came with its sender settings: read once.
  const locales =
    message.channel === 'whatsapp' && settings
      ? await areas.patientLocales(tx, settings.patientLanguage, message.patientId)
      : undefined;
  return { kind: 'send', message, gateway, sender, body, mark, ...(locales ? { locales } : {}) };
}

/**
 * A message whose order moved on since it was queued. Nothing was handed to a gateway: the message ends
 * failed with the reason, the order's last status stays that of its last real message, and the timeline
 * says why the patient heard nothing.
 */
async function suppressStale(
  tx: Tx,
  deps: AppDeps,
  areas: MessagePort,
  message: QueuedMessage,
  stale: string,
  now: number,
): Promise<Publish | undefined> {
  await updateMessageDelivery(tx, message.id, {
    status: 'failed',
    provider_status: 'NOT_SENT',
    last_error: stale,
    updated: now,
  });
  await emitMessageStatus(tx, deps, message, 'failed', stale);
  return areas.recordOnOrder(
    tx,
    message,
    {
      event: {
        by: 'message.send',
        code: 'MESSAGE_SUPPRESSED',
        words: stale,
        data: { messageId: message.id, templateKey: message.templateKey, reason: 'stale' },
      },
    },
    now,
  );
}

/**
 * The gateway of the message's channel (for SMS, the business's choice of provider); outside production
 * the local gateway stands in for one not configured, in production the message is refused.
 */
function chooseGateway(
  deps: AppDeps,
  gateways: Partial<Record<ProviderName, Gateway>>,
  message: QueuedMessage,
  smsGateway: SmsGateway,
): { provider: ProviderName; gateway: Gateway } | Refused {
  const provider: ProviderName =
    message.channel === 'email' ? 'email' : message.channel === 'whatsapp' ? 'whatsapp' : smsProviders[smsGateway];
  const gateway = gateways[provider];
  if (gateway) return { provider, gateway };
  if (deps.config.production) {
    return { kind: 'refused', message, provider, reason: `No ${provider} gateway is configured (${needs[provider]})` };
  }
  return { provider, gateway: localGateway(provider, deps.localTexts) };
}

/** The message's words with `${pin}` and `${portal}` filled in, or its refusal when the order has no PIN. */
async function renderBody(
  tx: Tx,
  areas: MessagePort,
  message: QueuedMessage,
  order: OrderToMessage | undefined,
): Promise<string | Omit<Refused, 'provider'>> {
  let body = message.body;
  if (body.includes('${pin}')) {
    const pin = order ? order.pin() : null;
    if (pin === null) return { kind: 'refused', message, reason: 'The order has no PIN to send' };
    body = body.replaceAll('${pin}', formatPin(pin));
  }
  if (body.includes('${portal}')) {
    const link = await areas.portalLink(tx, { orderId: order?.id ?? null, businessId: message.businessId });
    body = body.replaceAll('${portal}', link);
  }
  return body;
}
