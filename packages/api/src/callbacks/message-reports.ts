import { createHmac, timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { messagePort } from '../areas/messages/index.ts';
import {
  applyDeliveryReport,
  awsSmsStatus,
  type DeliveryReport,
  messageBirdStatus,
  smsWorksStatus,
  whatsAppStatus,
} from '../delivery/messages/delivery-reports.ts';
import { REPORTS_PATH, reportTokenMatches } from '../delivery/messages/report-urls.ts';
import type { AppDeps } from '../deps.ts';
import { isSnsUrl, type SnsSigningKeys, snsSignatureValid, snsSigningKeys } from './sns.ts';

/** The largest report body read: providers send a few KB; WhatsApp batches stay far below this. */
const MAX_BODY = 256 * 1024;

export type ReportRouteOptions = {
  /**
   * Confirms an SNS subscription by visiting its SubscribeURL (already checked to be AWS's SNS).
   * Tests replace it; the default GETs the URL.
   */
  confirmSnsSubscription?: (url: string) => Promise<void>;
  /** The public key of an SNS signing certificate (already checked to be SNS's). Tests replace it; the default fetches it. */
  snsSigningKeys?: SnsSigningKeys;
};

/** A refusal: the status and a short body; nothing changed. */
const refuse = (set: { status?: number | string }, status: number, message: string) => {
  set.status = status;
  return { error: message };
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The body as text, refused past MAX_BODY (null). */
async function rawBody(request: Request): Promise<string | null> {
  const text = await request.text();
  return text.length > MAX_BODY ? null : text;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const visit = async (url: string) => {
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`SNS answered ${res.status}`);
};

/**
 * Delivery reports from the message gateways, outside /api/ (providers send no Origin and no session):
 * - The SMS Works: `POST /hooks/messages/smsworks/{messageId}/{token}` (JSON), the URL given per message;
 * - MessageBird: `GET /hooks/messages/messagebird/{messageId}/{token}?id&status&…`, likewise;
 * - AWS: `POST /hooks/messages/aws-sms/{token}`, an SNS HTTPS subscription carrying the SMS events, each
 *   message's SNS signature checked (report-sns.ts);
 * - WhatsApp: `GET /hooks/messages/whatsapp` (Meta's verify handshake) and `POST` (status webhooks,
 *   signed with the app secret in X-Hub-Signature-256).
 * A wrong token or signature is refused (401) and changes nothing; a report naming no message of ours is
 * answered 200 and logged, so the provider does not keep sending it.
 */
export function messagingReportRoutes(deps: AppDeps, options: ReportRouteOptions = {}) {
  const { config, logger } = deps;
  const confirm = options.confirmSnsSubscription ?? visit;
  const signingKeys = options.snsSigningKeys ?? snsSigningKeys();
  const areas = messagePort(deps);
  const apply = (report: DeliveryReport) => applyDeliveryReport(deps, areas, report);

  return new Elysia({ name: 'messaging:reports' })
    .post(
      `${REPORTS_PATH}/smsworks/:messageId/:token`,
      async ({ params, request, set }) => {
        if (!reportTokenMatches(config, `smsworks:${params.messageId}`, params.token))
          return refuse(set, 401, 'Unknown report address');
        const text = await rawBody(request);
        const body = text === null ? null : parseObject(text);
        const providerMessageId = str(body?.messageid) ?? str(body?.messageId);
        const providerStatus = str(body?.status);
        if (!body || !providerMessageId || !providerStatus)
          return refuse(set, 400, 'A report needs messageid and status');
        const status = smsWorksStatus(providerStatus);
        // `failurereason` in the API's current schema (1.9); `failureReason` in older documentation.
        const failure = (body.failurereason ?? body.failureReason) as
          | { details?: unknown; code?: unknown }
          | string
          | undefined;
        const reason =
          status !== 'failed'
            ? null
            : ((typeof failure === 'string' ? failure : str(failure?.details)) ?? providerStatus.toLowerCase());
        return {
          outcome: await apply({
            provider: 'smsworks',
            providerMessageId,
            providerStatus,
            status,
            reason,
            details: body,
            messageId: params.messageId,
          }),
        };
      },
      { parse: 'none' },
    )
    .get(`${REPORTS_PATH}/messagebird/:messageId/:token`, async ({ params, request, set }) => {
      if (!reportTokenMatches(config, `messagebird:${params.messageId}`, params.token))
        return refuse(set, 401, 'Unknown report address');
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const providerMessageId = str(query.id);
      const providerStatus = str(query.status);
      if (!providerMessageId || !providerStatus) return refuse(set, 400, 'A report needs id and status');
      const status = messageBirdStatus(providerStatus);
      const reason =
        status !== 'failed'
          ? null
          : (str(query.statusReason) ?? (query.statusErrorCode ? `error ${query.statusErrorCode}` : providerStatus));
      return {
        outcome: await apply({
          provider: 'messagebird',
          providerMessageId,
          providerStatus,
          status,
          reason,
          details: query,
          messageId: params.messageId,
        }),
      };
    })
    .post(
      `${REPORTS_PATH}/aws-sms/:token`,
      async ({ params, request, set }) => {
        if (!reportTokenMatches(config, 'aws-sms', params.token)) return refuse(set, 401, 'Unknown report address');
        const text = await rawBody(request);
        const envelope = text === null ? null : parseObject(text);
        if (!envelope) return refuse(set, 400, 'Not an SNS message');
        // The token says the address is ours; SNS's signature says SNS sent it (a leaked address alone
        // cannot forge a delivery report, nor make us visit a SubscribeURL).
        let signed: boolean;
        try {
          signed = await snsSignatureValid(envelope, signingKeys);
        } catch (error) {
          logger.warn('could not fetch the SNS signing certificate', {
            topic: str(envelope.TopicArn),
            error: (error as Error).message,
          });
          return refuse(set, 502, 'Could not check the signature');
        }
        if (!signed) return refuse(set, 401, 'Bad SNS signature');
        switch (envelope.Type) {
          case 'SubscriptionConfirmation': {
            const url = str(envelope.SubscribeURL);
            if (!url || !isSnsUrl(url)) return refuse(set, 400, 'SubscribeURL is not an SNS address');
            try {
              await confirm(url);
            } catch (error) {
              logger.warn('could not confirm the SNS subscription for SMS events', {
                topic: str(envelope.TopicArn),
                error: (error as Error).message,
              });
              return refuse(set, 502, 'Could not confirm the subscription');
            }
            logger.info('SNS subscription for SMS events confirmed', { topic: str(envelope.TopicArn) });
            return { confirmed: true };
          }
          case 'UnsubscribeConfirmation':
            logger.warn('SNS unsubscribed this server from SMS events', { topic: str(envelope.TopicArn) });
            return { ok: true };
          case 'Notification': {
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
          default:
            return refuse(set, 400, 'Not an SNS message');
        }
      },
      { parse: 'none' },
    )
    .get(`${REPORTS_PATH}/whatsapp`, ({ request, set }) => {
      const q = new URL(request.url).searchParams;
      const want = config.gateways.whatsApp.verifyToken;
      const given = q.get('hub.verify_token') ?? '';
      const ok =
        want !== undefined &&
        q.get('hub.mode') === 'subscribe' &&
        given.length === want.length &&
        timingSafeEqual(Buffer.from(given), Buffer.from(want));
      if (!ok) return refuse(set, 403, 'Verification refused');
      set.headers['content-type'] = 'text/plain; charset=utf-8';
      return q.get('hub.challenge') ?? '';
    })
    .post(
      `${REPORTS_PATH}/whatsapp`,
      async ({ request, set }) => {
        const secret = config.gateways.whatsApp.appSecret;
        if (!secret) return refuse(set, 404, 'WhatsApp is not configured');
        const text = await rawBody(request);
        if (text === null) return refuse(set, 413, 'Too large');
        const given = request.headers.get('x-hub-signature-256') ?? '';
        const want = `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
        if (given.length !== want.length || !timingSafeEqual(Buffer.from(given), Buffer.from(want)))
          return refuse(set, 401, 'Bad signature');
        const body = parseObject(text);
        if (!body) return refuse(set, 400, 'Not a WhatsApp webhook');
        const outcomes = [];
        for (const status of whatsAppStatuses(body)) {
          const providerMessageId = str(status.id);
          const providerStatus = str(status.status);
          if (!providerMessageId || !providerStatus) continue;
          const mapped = whatsAppStatus(providerStatus);
          const reference = str(status.biz_opaque_callback_data);
          outcomes.push(
            await apply({
              provider: 'whatsapp',
              providerMessageId,
              providerStatus,
              status: mapped,
              reason: mapped === 'failed' ? (whatsAppReason(status) ?? providerStatus) : null,
              details: status,
              ...(reference ? { messageId: reference } : {}),
            }),
          );
        }
        return { outcomes };
      },
      { parse: 'none' },
    );
}

/** Every status update in a WhatsApp webhook (entry[].changes[].value.statuses[]); messages and others are skipped. */
function whatsAppStatuses(body: Record<string, unknown>): Record<string, unknown>[] {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  return list(body.entry).flatMap((entry) =>
    list(entry?.changes).flatMap((change) =>
      list((change?.value as Record<string, unknown> | undefined)?.statuses).filter((s) => s && typeof s === 'object'),
    ),
  );
}

/** A failed status's reason: its first error's details, message or title. */
function whatsAppReason(status: Record<string, unknown>): string | undefined {
  const error = (Array.isArray(status.errors) ? status.errors[0] : undefined) as Record<string, unknown> | undefined;
  if (!error) return undefined;
  const data = error.error_data as Record<string, unknown> | undefined;
  return str(data?.details) ?? str(error.message) ?? str(error.title);
}
