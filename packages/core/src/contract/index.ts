import { alarms } from './alarms.ts';
import { audit } from './audit.ts';
import { auth } from './auth.ts';
import { bags } from './bags.ts';
import { businessSettings } from './business-settings.ts';
import { businesses } from './businesses.ts';
import { checkout } from './checkout.ts';
import { dataProtection } from './data-protection.ts';
import { evidence } from './evidence.ts';
import { globalSettings } from './global-settings.ts';
import { groupReports } from './group-reports.ts';
import { groups } from './groups.ts';
import { health } from './health.ts';
import { identityProviders } from './identity-providers.ts';
import { integration } from './integration.ts';
import { jobs } from './jobs.ts';
import { machines } from './machines.ts';
import { mailbox } from './mailbox.ts';
import { messages } from './messages.ts';
import { notifications } from './notifications.ts';
import { orders } from './orders.ts';
import { patientOrders } from './patient-orders.ts';
import { patientSignUps } from './patient-sign-ups.ts';
import { patients } from './patients.ts';
import { paymentSettings } from './payment-settings.ts';
import { qrCodes } from './qr-codes.ts';
import { reports } from './reports.ts';
import { signUps } from './sign-ups.ts';
import { testMachines } from './test-machines.ts';
import { url } from './url.ts';
import { users } from './users.ts';
import { webhooks } from './webhooks.ts';

/**
 * The RPC contract: area → method → input, output and access. `POST /api/{area}/{method}`.
 * The api validates with it, the console and cli are typed by it, the OpenAPI page is made from it.
 */
export const contract = {
  health,
  auth,
  users,
  identityProviders,
  businesses,
  groups,
  machines,
  testMachines,
  bags,
  orders,
  patientOrders,
  checkout,
  messages,
  patients,
  signUps,
  patientSignUps,
  businessSettings,
  paymentSettings,
  integration,
  webhooks,
  reports,
  evidence,
  groupReports,
  globalSettings,
  dataProtection,
  mailbox,
  notifications,
  url,
  jobs,
  audit,
  qrCodes,
  alarms,
} as const;

export type Contract = typeof contract;
export { AuditEntry, type AuditFilters, auditExportMax, auditPageSize } from './audit.ts';
export {
  EvidenceAction,
  EvidenceMachineEvent,
  EvidenceMessage,
  EvidenceOrder,
  EvidencePack,
  evidenceFileReadingsMax,
  evidenceMaxRangeDays,
  evidenceOutsideReadingsMax,
  pinHoldsMax,
} from './evidence.ts';
export {
  GroupBusinessMonths,
  groupComparisonMaxBusinesses,
  groupComparisonMonths,
  MonthlyTotals,
} from './group-reports.ts';
export { JobInfo, JobQueue, JobState, jobsPageSize } from './jobs.ts';
export { LocalTextMessage, MailboxAttachment, MailboxMessage } from './mailbox.ts';
export { NotificationListItem, notificationsPageSize } from './notifications.ts';
export {
  collectionRecordsMaxAll,
  collectionRecordsPageSize,
  monthlyStatsPageSize,
  UsageOverview,
  usageBusinessMonths,
  usageEstateDays,
  usageMachineListMax,
} from './reports.ts';
export { shortUrlCodeMaxLength } from './url.ts';
export type AreaName = keyof Contract;
export { AccountStatus, StaffSession } from './account.ts';
export { alarmsListMax } from './alarms.ts';
export {
  AccessLevel,
  AddableRoleName,
  AddRolesOutcome,
  FrontEnd,
  LoginReason,
  ResourceType,
  Role,
  RoleName,
  RoleToAdd,
  SessionInfo,
  User,
} from './auth.ts';
export { BagToRemove, bagsToRemoveListMax } from './bags.ts';
export {
  type ControlledSettingKey,
  ControlledSettings,
  ControlledSettingsChanges,
  collectionWindowDays,
  controlledSettingKeys,
  defaultFeatureSettings,
  defaultSmsTemplates,
  FeatureSettingsChanges,
  SmsTemplatesChanges,
  smsGatewayNames,
  smsTemplateMaxLength,
} from './business-settings.ts';
export { BusinessInfo, infoPageSize } from './businesses.ts';
export * from './define.ts';
export { activateDeviceAuth } from './device-auth.ts';
export { AlarmTemplatesChanges, alarmTemplateMaxLength, alarmTemplateProblem } from './global-settings.ts';
export { GroupInfo } from './groups.ts';
export { IdentityProvider, IdentityProviderType } from './identity-providers.ts';
export { IntegrationClientView, IntegrationPartner, integrationRateLimit, WebhookUrl } from './integration.ts';
export { fleetAlarmsPerMachine, fleetPageSize, MachineForm, machinesPageSize } from './machines.ts';
export { messagesPageSize } from './messages.ts';
export { methodActors } from './method-actors.ts';
export {
  BulkOrderAction,
  BulkOrderOutcome,
  bulkOrderActions,
  bulkOrdersMax,
  findOrdersMax,
  OrderSortColumn,
  OrderSortDirection,
  OrderStatusFilter,
  orderSortColumns,
  ordersExportMax,
  ordersPageSize,
} from './orders.ts';
export { PatientMobile, PatientSessionInfo, patientAuthPolicy, patientOnly } from './patient-auth.ts';
export { PatientOrderDetails, PatientOrderSummary } from './patient-orders.ts';
export { OnlineSignUp, onlineSignUpLimits, SignUpBusiness } from './patient-sign-ups.ts';
export { patientsBatchGetMax, patientsPageSize, patientsUpsertMax, UpsertOutcome, UpsertStatus } from './patients.ts';
export { PaymentClientSettings, paymentSecretMask } from './payment-settings.ts';
export { MyRoleInvitation, RoleInvitation, roleInvitationDays } from './role-invitations.ts';
export {
  PasskeyAssertion,
  PasskeyAttestation,
  SecondFactor,
  SecondFactorKind,
  SecondFactorMethod,
} from './second-factor.ts';
export { SignUpForm, SignUpVerification, signUpCodes, signUpsPageSize } from './sign-ups.ts';
export { IdentityProviderRef, usersPageSize, WhatsAppCodeSent, whatsAppOptInCodes } from './users.ts';
export {
  WebhookAttempt,
  WebhookAttemptTrigger,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
  WebhookOutcome,
  webhookEventTypes,
  webhookOutcomes,
  webhooksPageSize,
} from './webhooks.ts';
