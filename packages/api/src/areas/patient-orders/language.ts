import { AppError, type Locale, pageLocale } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { Service } from '../../context/method.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { findOrder, toOrder } from '../orders/index.ts';
import { findPatientLanguage } from '../patients/index.ts';
import { type Db, writePatientLanguage } from './repository.ts';

type PatientActor = Extract<Actor, { kind: 'patient' }>;

/** The language the patient page shows a patient: their choice, else the business's default (bilingual: Welsh). */
export async function patientPageLanguage(db: Db, businessId: string, patientId: string): Promise<Locale> {
  const [{ settings }, chosen] = await Promise.all([
    effectiveFeatureSettings(db, businessId),
    findPatientLanguage(db, patientId),
  ]);
  return pageLocale(settings.patientLanguage, chosen);
}

/**
 * Keeps the language the patient chose on the page, for the page and their next messages (messages
 * already queued keep theirs). Only on one of their own orders' pages: another's is 404.
 */
export const setPatientLanguage: Service<'patientOrders/setLanguage', PatientActor> = async (deps, actor, input) => {
  const row = await findOrder(deps.db, input.orderId);
  const order = row && toOrder(row);
  if (!order || order.patientId !== actor.patientId || order.businessId !== actor.businessId) {
    throw new AppError('NOT_FOUND', `No order with id ${input.orderId}`);
  }
  await deps.db.transaction().execute(async (tx) => {
    await writePatientLanguage(tx, actor.patientId, input.language);
    await audit(tx, deps, actor, {
      action: 'patient.language.changed',
      entityType: 'patient',
      entityId: actor.patientId,
      businessId: actor.businessId,
      details: { language: input.language },
    });
  });
  return { language: input.language };
};
