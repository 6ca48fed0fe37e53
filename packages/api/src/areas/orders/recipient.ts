import type { BusinessFeatureSettings } from '@medlocker/core';
import { findWhatsAppOptIn } from '../patients/index.ts';
import type { Db } from './mapping-repository.ts';

/** How and to whom a patient's message goes. */
export type PatientRoute = { channel: 'whatsapp' | 'sms' | 'email'; recipient: string };

/**
 * Where a message to a patient goes (docs/decisions/messaging.md, WhatsApp opt-in): by WhatsApp when the business
 * enables it (controlled setting `enableWhatsApp`) and the patient opted in on their current mobile;
 * else by email when the business sends only email where it can (`sendOnlyEmailIfPossible`) and the
 * patient has an address; else by SMS to their mobile; else by email; null when they have neither.
 */
export async function patientRoute(
  db: Db,
  settings: Pick<BusinessFeatureSettings, 'enableWhatsApp' | 'sendOnlyEmailIfPossible'>,
  patient: { id: string; email: string | null; mobileNumber: string | null },
): Promise<PatientRoute | null> {
  const mobile = patient.mobileNumber;
  if (settings.enableWhatsApp && mobile && (await findWhatsAppOptIn(db, patient.id)) === mobile) {
    return { channel: 'whatsapp', recipient: mobile };
  }
  if (settings.sendOnlyEmailIfPossible && patient.email) return { channel: 'email', recipient: patient.email };
  if (mobile) return { channel: 'sms', recipient: mobile };
  if (patient.email) return { channel: 'email', recipient: patient.email };
  return null;
}
