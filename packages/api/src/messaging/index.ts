export {
  e164Or,
  type Gateway,
  GatewayError,
  type ProviderName,
  type SendRequest,
  type SendResult,
  toE164,
} from './gateway.ts';
export { configuredGateways } from './gateways/index.ts';
export { messagingReportRoutes } from './report-routes.ts';
export { messageReportUrl, providerReportUrl, reportToken, reportUrlFor, whatsAppReportUrl } from './report-urls.ts';
export { applyDeliveryReport, type DeliveryReport } from './reports.ts';
