import { AppError, type Locale, messageLocales, patientAuthPolicy } from '@medlocker/core';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { findPatientLanguage } from '../patients/index.ts';
import type { Db } from './patient-repository.ts';

/**
 * One texted code a minute, to an order's link or to a mobile being added: 429 with the seconds left
 * when the last one went out less than `resendAfterSeconds` ago (never sent: `lastSend` null).
 */
export function checkResendWait(lastSend: number | null, now: number): void {
  const after = patientAuthPolicy.resendAfterSeconds * 1000;
  if (lastSend === null || now - lastSend >= after) return;
  const wait = Math.ceil((lastSend + after - now) / 1000);
  throw new AppError(
    'RATE_LIMITED',
    `A code was sent a moment ago. Please wait ${wait} seconds before asking for another.`,
    undefined,
    wait,
  );
}

/**
 * The languages a code texted to a known patient is written in, as their order messages are: their
 * own choice, else the business's patient language (bilingual: Welsh first, one message).
 */
export async function codeLocales(db: Db, businessId: string, patientId: string): Promise<Locale[]> {
  const { settings } = await effectiveFeatureSettings(db, businessId);
  return messageLocales(settings.patientLanguage, await findPatientLanguage(db, patientId));
}
