import { effectiveRetention, emptyRetentionCounts, type RetentionCounts, type RetentionPolicy } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { erasePatientNow } from './erase.ts';
import { anonymiseOrders } from './erase-repository.ts';
import { type Db, listBusinessIds, listOverrides, readProductPolicy } from './policy-repository.ts';
import {
  cutoffs,
  deleteAuditEntries,
  deleteDeliveries,
  deleteReadings,
  ordersPastTime,
  patientsPastTime,
} from './retention-repository.ts';

/** Rows per transaction: small enough that no batch holds its locks for long. */
export const RETENTION_BATCH = 500;
/** Patients are erased one transaction each (several tables each), this many looked up at a time. */
const PATIENT_BATCH = 50;

export const RETENTION_JOB = 'retention.apply';

/** Runs `step` (one short transaction) until it does less than a full batch; answers the total. */
async function drain(deps: AppDeps, step: (tx: Db) => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await deps.db.transaction().execute(step);
    total += done;
    if (done < batch) return total;
  }
}

/**
 * Erases the business's patients past their time, one transaction each. A patient who cannot be erased
 * (an order loaded meanwhile: a 409) is logged and left to the next night; a batch in which none could
 * be erased ends the step, so one such patient never keeps the job going round.
 */
async function erasePatientsPastTime(deps: AppDeps, businessId: string, before: number): Promise<number> {
  const actor = systemActor(RETENTION_JOB);
  let erased = 0;
  for (;;) {
    const ids = await patientsPastTime(deps.db, businessId, before, PATIENT_BATCH);
    let done = 0;
    for (const id of ids) {
      try {
        await erasePatientNow(deps, actor, id, 'retention');
        done++;
      } catch (error) {
        deps.logger.warn('retention: a patient could not be erased', { patientId: id, error: String(error) });
      }
    }
    erased += done;
    if (ids.length < PATIENT_BATCH || done === 0) return erased;
  }
}

/** One business's rows past their time under its policy, removed or anonymised batch by batch. */
async function applyToBusiness(
  deps: AppDeps,
  businessId: string,
  policy: RetentionPolicy,
  batch: number,
): Promise<RetentionCounts> {
  const cut = cutoffs(policy, deps.now());
  const now = deps.now();
  const orders = await drain(
    deps,
    async (tx) => anonymiseOrders(tx, businessId, await ordersPastTime(tx, businessId, cut.orders, batch), now),
    batch,
  );
  const patients = await erasePatientsPastTime(deps, businessId, cut.patients);
  const temperatureReadings = await drain(deps, (tx) => deleteReadings(tx, businessId, cut.temperature, batch), batch);
  const auditEntries = await drain(deps, (tx) => deleteAuditEntries(tx, businessId, cut.audit, batch), batch);
  const deliveries = await drain(deps, (tx) => deleteDeliveries(tx, businessId, cut.deliveries, batch), batch);
  return { orders, patients, temperatureReadings, auditEntries, deliveries };
}

/**
 * The nightly job `retention.apply` (docs/decisions/retention.md): every business under its effective
 * policy, then the rows of no business (audit entries, staff emails) under the product's. Writes one
 * `retention.apply` audit entry with the counts, and answers them (the job's log line).
 */
export async function applyRetention(deps: AppDeps, batch = RETENTION_BATCH): Promise<RetentionCounts> {
  const { policy } = await readProductPolicy(deps.db);
  const overrides = await listOverrides(deps.db);
  const total = emptyRetentionCounts();
  const addIn = (counts: RetentionCounts) => {
    for (const key of Object.keys(total) as (keyof RetentionCounts)[]) total[key] += counts[key];
  };
  for (const businessId of await listBusinessIds(deps.db)) {
    const effective = effectiveRetention(policy, overrides.get(businessId) ?? null);
    addIn(await applyToBusiness(deps, businessId, effective, batch));
  }
  const cut = cutoffs(policy, deps.now());
  addIn({
    ...emptyRetentionCounts(),
    auditEntries: await drain(deps, (tx) => deleteAuditEntries(tx, null, cut.audit, batch), batch),
    deliveries: await drain(deps, (tx) => deleteDeliveries(tx, null, cut.deliveries, batch), batch),
  });
  await audit(deps.db, deps, systemActor(RETENTION_JOB), {
    action: 'retention.apply',
    entityType: 'retentionPolicy',
    details: { ...total },
  });
  return total;
}
