import type { Migration } from 'kysely/migration';
import * as identity from './0001_identity.ts';
import * as estate from './0002_estate.ts';
import * as machines from './0003_machines.ts';
import * as patients from './0004_patients.ts';
import * as ordersMessaging from './0005_orders_messaging.ts';
import * as settingsIntegration from './0006_settings_integration.ts';
import * as patientImportIndexes from './0007_patient_import_indexes.ts';
import * as temperatureReadingsMachineCheck from './0008_temperature_readings_machine_check.ts';
import * as fleetSummary from './0009_fleet_summary.ts';
import * as temperatureReadingsKey from './0010_temperature_readings_key.ts';
import * as machineCheckByIndex from './0011_machine_check_by_index.ts';
import * as messageOutboxStatusIndex from './0012_message_outbox_status_index.ts';
import * as containsSearch from './0013_contains_search.ts';
import * as loginAddressFailures from './0014_login_address_failures.ts';
import * as outboxDedupeKey from './0015_outbox_dedupe_key.ts';
import * as orderBehaviour from './0017_order_behaviour.ts';
import * as ordersExpiredList from './0018_orders_expired_list.ts';
import * as jobs from './0019_jobs.ts';
import * as shortUrls from './0020_short_urls.ts';
import * as orderExpiryReminders from './0021_order_expiry_reminders.ts';
import * as whatsAppOptIn from './0022_whatsapp_opt_in.ts';
import * as paymentAttempts from './0023_payment_attempts.ts';
import * as patientSessions from './0024_patient_sessions.ts';
import * as onlineSignUps from './0025_online_sign_ups.ts';
import * as integrationApi from './0026_integration_api.ts';
import * as monthlyStats from './0027_monthly_stats.ts';
import * as monthlyStatsChanges from './0028_monthly_stats_changes.ts';
import * as usageStats from './0029_usage_stats.ts';
import * as monthlyReportSends from './0030_monthly_report_sends.ts';
import * as pinHolds from './0031_pin_holds.ts';
import * as sso from './0032_sso.ts';
import * as ssoContinuations from './0034_sso_continuations.ts';
import * as jobRequestId from './0036_job_request_id.ts';
import * as demoMachines from './0037_demo_machines.ts';
import * as samlMetadata from './0038_saml_metadata.ts';
import * as spentPatientCode from './0039_spent_patient_code.ts';
import * as messageResends from './0040_message_resends.ts';
import * as roleInvitations from './0041_role_invitations.ts';
import * as machineOwnerAndReportedSlots from './0042_machine_owner_and_reported_slots.ts';
import * as accountActivity from './0043_account_activity.ts';
import * as secondFactors from './0044_second_factors.ts';
import * as auditTrailSearch from './0045_audit_trail_search.ts';
import * as retention from './0046_retention.ts';
import * as nhsLogin from './0048_nhs_login.ts';
import * as qrSigningKeys from './0049_qr_signing_keys.ts';
import * as alarms from './0051_alarms.ts';
import * as languages from './0052_languages.ts';
import * as patientSearchPending from './0053_patient_search_pending.ts';
import * as signUpLanguage from './0054_sign_up_language.ts';
import * as patientSearchColumns from './0055_patient_search_columns.ts';
import * as patientImportDigest from './0056_patient_import_digest.ts';

/**
 * Every migration, in order. Migrations are frozen in time: they import nothing from packages/,
 * and once landed they are never edited; a change is a new migration.
 */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_estate': estate,
  '0003_machines': machines,
  '0004_patients': patients,
  '0005_orders_messaging': ordersMessaging,
  '0006_settings_integration': settingsIntegration,
  '0007_patient_import_indexes': patientImportIndexes,
  '0008_temperature_readings_machine_check': temperatureReadingsMachineCheck,
  '0009_fleet_summary': fleetSummary,
  '0010_temperature_readings_key': temperatureReadingsKey,
  '0011_machine_check_by_index': machineCheckByIndex,
  '0012_message_outbox_status_index': messageOutboxStatusIndex,
  '0013_contains_search': containsSearch,
  '0014_login_address_failures': loginAddressFailures,
  '0015_outbox_dedupe_key': outboxDedupeKey,
  '0017_order_behaviour': orderBehaviour,
  '0018_orders_expired_list': ordersExpiredList,
  '0019_jobs': jobs,
  '0020_short_urls': shortUrls,
  '0021_order_expiry_reminders': orderExpiryReminders,
  '0022_whatsapp_opt_in': whatsAppOptIn,
  '0023_payment_attempts': paymentAttempts,
  '0024_patient_sessions': patientSessions,
  '0025_online_sign_ups': onlineSignUps,
  '0026_integration_api': integrationApi,
  '0027_monthly_stats': monthlyStats,
  '0028_monthly_stats_changes': monthlyStatsChanges,
  '0029_usage_stats': usageStats,
  '0030_monthly_report_sends': monthlyReportSends,
  '0031_pin_holds': pinHolds,
  '0032_sso': sso,
  '0034_sso_continuations': ssoContinuations,
  '0036_job_request_id': jobRequestId,
  '0037_demo_machines': demoMachines,
  '0038_saml_metadata': samlMetadata,
  '0039_spent_patient_code': spentPatientCode,
  '0040_message_resends': messageResends,
  '0041_role_invitations': roleInvitations,
  '0042_machine_owner_and_reported_slots': machineOwnerAndReportedSlots,
  '0043_account_activity': accountActivity,
  '0044_second_factors': secondFactors,
  '0045_audit_trail_search': auditTrailSearch,
  '0046_retention': retention,
  '0048_nhs_login': nhsLogin,
  '0049_qr_signing_keys': qrSigningKeys,
  '0051_alarms': alarms,
  '0052_languages': languages,
  '0053_patient_search_pending': patientSearchPending,
  '0054_sign_up_language': signUpLanguage,
  '0055_patient_search_columns': patientSearchColumns,
  '0056_patient_import_digest': patientImportDigest,
};
