import { Elysia } from 'elysia';
import { messagePort } from '../areas/messages/index.ts';
import type { AppDeps } from '../context/deps.ts';
import { applyDeliveryReport, type DeliveryReport } from '../delivery/messages/delivery-reports.ts';
import { awsSmsReportRoute } from './message-reports-aws.ts';
import { messageBirdReportRoute, smsWorksReportRoute } from './message-reports-sms.ts';
import { whatsAppReportRoutes } from './message-reports-whatsapp.ts';
import { type SnsSigningKeys, snsSigningKeys } from './sns.ts';

export type ReportRouteOptions = {
  /**
   * Confirms an SNS subscription by visiting its SubscribeURL (already checked to be AWS's SNS).
   * Tests replace it; the default GETs the URL.
   */
  confirmSnsSubscription?: (url: string) => Promise<void>;
  /** The public key of an SNS signing certificate (already checked to be SNS's). Tests replace it; the default fetches it. */
  snsSigningKeys?: SnsSigningKeys;
};

const visit = async (url: string) => {
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`SNS answered ${res.status}`);
};

/**
 * Delivery reports from the message gateways, outside /api/ (providers send no Origin and no session):
 * - The SMS Works: `POST /hooks/messages/smsworks/{messageId}/{token}` (JSON), the URL given per message;
 * - MessageBird: `GET /hooks/messages/messagebird/{messageId}/{token}?id&status&…`, likewise;
 * - AWS: `POST /hooks/messages/aws-sms/{token}`, an SNS HTTPS subscription carrying the SMS events, each
 *   message's SNS signature checked (sns.ts);
 * - WhatsApp: `GET /hooks/messages/whatsapp` (Meta's verify handshake) and `POST` (status webhooks,
 *   signed with the app secret in X-Hub-Signature-256).
 * A wrong token or signature is refused (401) and changes nothing; a report naming no message of ours is
 * answered 200 and logged, so the provider does not keep sending it.
 */
export function messagingReportRoutes(deps: AppDeps, options: ReportRouteOptions = {}) {
  const { config } = deps;
  const confirm = options.confirmSnsSubscription ?? visit;
  const signingKeys = options.snsSigningKeys ?? snsSigningKeys();
  const areas = messagePort(deps);
  const apply = (report: DeliveryReport) => applyDeliveryReport(deps, areas, report);

  return new Elysia({ name: 'messaging:reports' })
    .use(smsWorksReportRoute(config, apply))
    .use(messageBirdReportRoute(config, apply))
    .use(awsSmsReportRoute(deps, { confirm, signingKeys }, apply))
    .use(whatsAppReportRoutes(config, apply));
}
