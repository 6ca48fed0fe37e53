import { createHmac, timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import type { Config } from '../config/config.ts';
import { whatsAppStatus } from '../delivery/messages/delivery-reports.ts';
import { REPORTS_PATH } from '../delivery/messages/report-urls.ts';
import { type ApplyReport, parseObject, rawBody, refuse, str } from './message-reports-common.ts';

/**
 * WhatsApp: `GET /hooks/messages/whatsapp` (Meta's verify handshake) and `POST` (status webhooks, signed
 * with the app secret in X-Hub-Signature-256).
 */
export const whatsAppReportRoutes = (config: Config, apply: ApplyReport) =>
  new Elysia({ name: 'messaging:reports:whatsapp' })
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
          const reference = opaqueReference(status);
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

/** Every status update in a WhatsApp webhook (entry[].changes[].value.statuses[]); messages and others are skipped. */
function whatsAppStatuses(body: Record<string, unknown>): Record<string, unknown>[] {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  return list(body.entry).flatMap((entry) =>
    list(entry?.changes).flatMap((change) =>
      list((change?.value as Record<string, unknown> | undefined)?.statuses).filter((s) => s && typeof s === 'object'),
    ),
  );
}

/** Our message id, sent to Meta as the message's `biz_opaque_callback_data` and echoed in its statuses. */
function opaqueReference(status: Record<string, unknown>): string | undefined {
  const { biz_opaque_callback_data: reference } = status;
  return str(reference);
}

/** A failed status's reason: its first error's details (Meta's `error_data`), message or title. */
function whatsAppReason(status: Record<string, unknown>): string | undefined {
  const error = (Array.isArray(status.errors) ? status.errors[0] : undefined) as Record<string, unknown> | undefined;
  if (!error) return undefined;
  const { error_data: data } = error as { error_data?: Record<string, unknown> };
  return str(data?.details) ?? str(error.message) ?? str(error.title);
}
