import { Elysia } from 'elysia';
import type { Config } from '../config/config.ts';
import { messageBirdStatus, smsWorksStatus } from '../delivery/messages/delivery-reports.ts';
import { REPORTS_PATH, reportTokenMatches } from '../delivery/messages/report-urls.ts';
import { type ApplyReport, parseObject, rawBody, refuse, str } from './message-reports-common.ts';

/** The SMS Works: `POST /hooks/messages/smsworks/{messageId}/{token}` (JSON), the URL given per message. */
export const smsWorksReportRoute = (config: Config, apply: ApplyReport) =>
  new Elysia({ name: 'messaging:reports:smsworks' }).post(
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
  );

/** MessageBird: `GET /hooks/messages/messagebird/{messageId}/{token}?id&status&…`, the URL given per message. */
export const messageBirdReportRoute = (config: Config, apply: ApplyReport) =>
  new Elysia({ name: 'messaging:reports:messagebird' }).get(
    `${REPORTS_PATH}/messagebird/:messageId/:token`,
    async ({ params, request, set }) => {
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
    },
  );
