export { applyDeliveryReport, type DeliveryReport } from './delivery-reports.ts';
export {
  e164Or,
  type Gateway,
  GatewayError,
  type ProviderName,
  type SendRequest,
  type SendResult,
  toE164,
} from './gateways/gateway.ts';
export { configuredGateways } from './gateways/index.ts';
export { messageReportUrl, providerReportUrl, reportToken, reportUrlFor, whatsAppReportUrl } from './report-urls.ts';
