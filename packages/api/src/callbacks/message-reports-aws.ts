import { Elysia } from 'elysia';
import type { AppDeps } from '../context/deps.ts';
import { awsSmsStatus } from '../delivery/messages/delivery-reports.ts';
import { REPORTS_PATH, reportTokenMatches } from '../delivery/messages/report-urls.ts';
import { type ApplyReport, parseObject, rawBody, refuse, str } from './message-reports-common.ts';
import { isSnsUrl, type SnsSigningKeys, snsSignatureValid } from './sns.ts';

/** How the AWS route confirms a subscription and checks a signature (tests replace both). */
export type SnsChecks = { confirm: (url: string) => Promise<void>; signingKeys: SnsSigningKeys };

type Set = { status?: number | string };

/**
 * AWS: `POST /hooks/messages/aws-sms/{token}`, an SNS HTTPS subscription carrying the SMS events, each
 * message's SNS signature checked (sns.ts).
 */
export const awsSmsReportRoute = (deps: AppDeps, sns: SnsChecks, apply: ApplyReport) =>
  new Elysia({ name: 'messaging:reports:aws-sms' }).post(
    `${REPORTS_PATH}/aws-sms/:token`,
    async ({ params, request, set }) => {
      if (!reportTokenMatches(deps.config, 'aws-sms', params.token)) return refuse(set, 401, 'Unknown report address');
      const text = await rawBody(request);
      const envelope = text === null ? null : parseObject(text);
      if (!envelope) return refuse(set, 400, 'Not an SNS message');
      // The token says the address is ours; SNS's signature says SNS sent it (a leaked address alone
      // cannot forge a delivery report, nor make us visit a SubscribeURL).
      let signed: boolean;
      try {
        signed = await snsSignatureValid(envelope, sns.signingKeys);
      } catch (error) {
        deps.logger.warn('could not fetch the SNS signing certificate', {
          topic: str(envelope.TopicArn),
          error: (error as Error).message,
        });
        return refuse(set, 502, 'Could not check the signature');
      }
      if (!signed) return refuse(set, 401, 'Bad SNS signature');
      switch (envelope.Type) {
        case 'SubscriptionConfirmation':
          return confirmSubscription(deps, sns, envelope, set);
        case 'UnsubscribeConfirmation':
          deps.logger.warn('SNS unsubscribed this server from SMS events', { topic: str(envelope.TopicArn) });
          return { ok: true };
        case 'Notification':
          return smsEvent(envelope, set, apply);
        default:
          return refuse(set, 400, 'Not an SNS message');
      }
    },
    { parse: 'none' },
  );

/** A signed SubscriptionConfirmation: its SubscribeURL visited when it is SNS's. */
async function confirmSubscription(deps: AppDeps, sns: SnsChecks, envelope: Record<string, unknown>, set: Set) {
  const url = str(envelope.SubscribeURL);
  if (!url || !isSnsUrl(url)) return refuse(set, 400, 'SubscribeURL is not an SNS address');
  try {
    await sns.confirm(url);
  } catch (error) {
    deps.logger.warn('could not confirm the SNS subscription for SMS events', {
      topic: str(envelope.TopicArn),
      error: (error as Error).message,
    });
    return refuse(set, 502, 'Could not confirm the subscription');
  }
  deps.logger.info('SNS subscription for SMS events confirmed', { topic: str(envelope.TopicArn) });
  return { confirmed: true };
}

/** A signed Notification: the SMS event it carries, applied to its message. */
async function smsEvent(envelope: Record<string, unknown>, set: Set, apply: ApplyReport) {
  const event = parseObject(str(envelope.Message) ?? '');
  const providerMessageId = str(event?.messageId);
  const eventType = str(event?.eventType);
  if (!event || !providerMessageId || !eventType) return refuse(set, 400, 'Not an SMS event');
  const status = awsSmsStatus(eventType, event.isFinal);
  const context = event.context as Record<string, unknown> | undefined;
  const reference = str(context?.reference);
  return {
    outcome: await apply({
      provider: 'aws-sms',
      providerMessageId,
      providerStatus: eventType,
      status,
      reason: status === 'failed' ? (str(event.messageStatusDescription) ?? eventType) : null,
      details: event,
      ...(reference ? { messageId: reference } : {}),
    }),
  };
}
