export * from './audit/actions.ts';
export * from './audit/audit-csv.ts';
export * from './business/address.ts';
export { Business, Logo } from './business/business.ts';
export * from './business/business-input.ts';
export * from './business/group.ts';
export * from './checkout/card-schemes.ts';
export * from './checkout/checkout.ts';
export * from './checkout/receipt.ts';
export * from './contact/uk-mobile.ts';
export * from './contact/uk-postcode.ts';
export * from './contract/client.ts';
export * from './contract/index.ts';
export * from './csv/csv-text.ts';
export * from './errors/app-error.ts';
// Errors, messages and machine alerts of SPEC §8.
export * from './errors/levels.ts';
export * from './errors/machine-alerts.ts';
export * from './errors/messages.ts';
export * from './format/count.ts';
export * from './format/date.ts';
export * from './format/duration.ts';
export * from './format/file-size.ts';
// Formatting (SPEC §9).
export * from './format/money.ts';
export * from './format/pin.ts';
export * from './format/sms.ts';
export * from './format/temperature.ts';
export * from './format/template.ts';
// Languages patients read (docs/ARCHITECTURE.md, Languages).
export * from './i18n/language.ts';
export * from './i18n/patient-wording.ts';
// The patient CSV import pipeline, shared by the console's Web Worker and the cli.
export * from './import/index.ts';
export * from './integration/events.ts';
export * from './integration/resources.ts';
export * from './limits.ts';
export * from './machine/alarm.ts';
export * from './machine/alarm-rules.ts';
export * from './machine/fleet.ts';
export * from './machine/fleet-rules.ts';
export * from './machine/machine.ts';
export * from './machine/machine-event.ts';
export * from './machine/machine-input.ts';
export * from './money/charge.ts';
export * from './notification/notification.ts';
export * from './notification/outbox-message.ts';
export * from './notification/short-url.ts';
export * from './order/exemption-code.ts';
export * from './order/label.ts';
export * from './order/order.ts';
export * from './order/order-input.ts';
export * from './order/orders-csv.ts';
export * from './order/qr-code.ts';
export * from './order/statuses.ts';
export * from './order/transitions.ts';
export * from './patient/imported-patient.ts';
export * from './patient/nhs-login.ts';
export * from './patient/nhs-number.ts';
export * from './patient/patient.ts';
// The locker protocol (docs/LOCKER-PROTOCOL.md).
export * from './protocol/index.ts';
// Retention (docs/decisions/retention.md).
export * from './retention/policy.ts';
export * from './settings/feature-settings.ts';
export * from './settings/global-settings.ts';
export * from './settings/integration-client.ts';
export * from './settings/patient-messages.ts';
export * from './settings/payment-settings.ts';
export * from './settings/sms-sender-id.ts';
export * from './settings/sms-templates.ts';
// Ids, timestamps and the archived/changed stamps every entity (SPEC §3) is built from.
export * from './stamps.ts';
export * from './stats/collection-csv.ts';
export * from './stats/monthly-report.ts';
export * from './stats/monthly-table.ts';
export * from './stats/opening-hours.ts';
export * from './stats/stats.ts';
export * from './upload/image-upload.ts';
export * from './user/device.ts';
export * from './user/password.ts';
export {
  accessLevels,
  adminCheckboxLabel,
  frontEndOf,
  PortalRoleName,
  portalRoleNames,
  roleDescription,
  roleNames,
  roleNeedsResource,
  supportScope,
} from './user/roles.ts';
// AccessLevel, FrontEnd and RoleName are exported by the contract (./contract) under the same names,
// so only the rest of roles.ts is re-exported here. Users, roles, sessions and identity providers are
// the contract's entities (contract/auth.ts, contract/identity-providers.ts).
// Validation: the catalogue of ids and messages, and the general rules of SPEC §5.
export * from './validation/catalogue.ts';
export * from './validation/field-errors.ts';
export * from './validation/form-check.ts';
export * from './validation/general.ts';
export { fail, isArkErrors, reject, textInput } from './validation/rule.ts';
export * from './validation/unique-items.ts';
