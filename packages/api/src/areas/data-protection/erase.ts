import { AppError } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { type Actor, actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Out, Service } from '../../context/method.ts';
import { emitPatientErased } from '../../delivery/webhooks/emit.ts';
import { anonymiseOrders, erasePatientRow, liveOrderCount, lockPatient, ordersOfPatient } from './erase-repository.ts';

/** Why a patient was erased: a request (staff acting on it) or the retention policy. */
export type ErasureReason = 'request' | 'retention';

const liveOrderMessage =
  'This patient has an order waiting to be loaded or in a locker: cancel it or mark it collected or removed first';

/**
 * Erases one patient in one transaction (docs/decisions/retention.md "Erasure"): refused while an order
 * is waiting to be loaded or inside a locker (the pharmacy still owes the patient that medicine and
 * needs their contact details to hand it over) and when already erased. Personal fields go; the orders
 * stay anonymised for the figures; the audit entry names who erased which patient id and how many
 * orders, never the erased data; partners hear `patient.erased`.
 */
export async function erasePatientNow(
  deps: AppDeps,
  actor: Actor,
  patientId: string,
  reason: ErasureReason,
): Out<'dataProtection/erasePatient'> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const patient = await lockPatient(tx, patientId);
    if (!patient) throw new AppError('NOT_FOUND', `No patient with id ${patientId}`);
    if (patient.erasedAt !== null) {
      throw new AppError('CONFLICT', 'This patient has already been erased', [
        { path: 'patientId', id: 'ALREADY_ERASED', message: 'This patient has already been erased' },
      ]);
    }
    if ((await liveOrderCount(tx, patient.businessId, patient.id)) > 0) {
      throw new AppError('CONFLICT', liveOrderMessage, [
        { path: 'patientId', id: 'LIVE_ORDER', message: liveOrderMessage },
      ]);
    }
    const orders = await ordersOfPatient(tx, patient.businessId, patient.id);
    const ordersAnonymised = await anonymiseOrders(tx, patient.businessId, orders, now);
    const who = actorIdentity(actor);
    await erasePatientRow(tx, patient, { userId: who.userId, display: who.display ?? 'Retention policy' }, now);
    await audit(tx, deps, actor, {
      action: 'patient.erase',
      entityType: 'patient',
      entityId: patient.id,
      businessId: patient.businessId,
      details: { reason, ordersAnonymised },
    });
    await emitPatientErased(tx, deps, patient, reason);
    return { patientId: patient.id, erasedAt: now, ordersAnonymised };
  });
}

export const erasePatient: Service<'dataProtection/erasePatient', Actor> = (deps, actor, input) => {
  return erasePatientNow(deps, actor, input.patientId, 'request');
};
