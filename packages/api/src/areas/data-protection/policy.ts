import {
  AppError,
  effectiveRetention,
  type RetentionCounts,
  type RetentionField,
  type RetentionPolicy,
  retentionFields,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Out, Service } from '../../context/method.ts';
import {
  businessExists,
  type Db,
  listBusinessIds,
  listOverrides,
  readOverrides,
  readProductPolicy,
  writeOverrides,
  writeProductPolicy,
} from './policy-repository.ts';
import { countPastTime, countProductPastTime, cutoffs } from './retention-repository.ts';

/*
 * The retention policy (docs/decisions/retention.md): support sets the product's periods; a business's
 * Admin (or support) may override them for that business within the same bounds. Each page shows what
 * the next nightly run would remove, counted with the job's own conditions.
 */

const add = (a: RetentionCounts, b: RetentionCounts): RetentionCounts => ({
  orders: a.orders + b.orders,
  patients: a.patients + b.patients,
  temperatureReadings: a.temperatureReadings + b.temperatureReadings,
  auditEntries: a.auditEntries + b.auditEntries,
  deliveries: a.deliveries + b.deliveries,
});

/** What the next run would remove across the estate, each business under its own policy. */
export async function previewEstate(db: Db, now: number): Promise<RetentionCounts> {
  const { policy } = await readProductPolicy(db);
  const overrides = await listOverrides(db);
  let total = await countProductPastTime(db, cutoffs(policy, now));
  for (const businessId of await listBusinessIds(db)) {
    const effective = effectiveRetention(policy, overrides.get(businessId) ?? null);
    total = add(total, await countPastTime(db, businessId, cutoffs(effective, now)));
  }
  return total;
}

async function productView(deps: AppDeps): Out<'dataProtection/getRetentionPolicy'> {
  const { policy, updated } = await readProductPolicy(deps.db);
  return { policy, updated, preview: await previewEstate(deps.db, deps.now()) };
}

/** The fields whose value differs, with both values: the audit entry's details. */
function changes<T>(before: Record<RetentionField, T>, after: Record<RetentionField, T>) {
  const fields = retentionFields.filter((f) => before[f] !== after[f]);
  return {
    fields,
    from: Object.fromEntries(fields.map((f) => [f, before[f]])),
    to: Object.fromEntries(fields.map((f) => [f, after[f]])),
  };
}

export const getRetentionPolicy: Service<'dataProtection/getRetentionPolicy'> = (deps, _actor, _input) => {
  return productView(deps);
};

export const updateRetentionPolicy: Service<'dataProtection/updateRetentionPolicy'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (tx) => {
    const { policy: before } = await readProductPolicy(tx);
    const after: RetentionPolicy = { ...before, ...input };
    const changed = changes(before, after);
    if (changed.fields.length === 0) return;
    await writeProductPolicy(tx, after, deps.now(), actor.userId);
    await audit(tx, deps, actor, { action: 'retention.update', entityType: 'retentionPolicy', details: changed });
  });
  return productView(deps);
};

async function businessView(deps: AppDeps, businessId: string): Out<'dataProtection/getBusinessRetention'> {
  if (!(await businessExists(deps.db, businessId))) throw new AppError('NOT_FOUND', `Business ${businessId} not found`);
  const { policy: product } = await readProductPolicy(deps.db);
  const { overrides, updated } = await readOverrides(deps.db, businessId);
  const effective = effectiveRetention(product, overrides);
  const preview = await countPastTime(deps.db, businessId, cutoffs(effective, deps.now()));
  return { businessId, overrides, product, effective, updated, preview };
}

export const getBusinessRetention: Service<'dataProtection/getBusinessRetention'> = (deps, _actor, input) => {
  return businessView(deps, input.businessId);
};

export const updateBusinessRetention: Service<'dataProtection/updateBusinessRetention'> = async (
  deps,
  actor,
  input,
) => {
  const { businessId, ...given } = input;
  if (!(await businessExists(deps.db, businessId))) throw new AppError('NOT_FOUND', `Business ${businessId} not found`);
  await deps.db.transaction().execute(async (tx) => {
    const { overrides: before } = await readOverrides(tx, businessId);
    const after = { ...before, ...given };
    const changed = changes(before, after);
    if (changed.fields.length === 0) return;
    await writeOverrides(tx, businessId, after, deps.now(), actor.userId);
    await audit(tx, deps, actor, {
      action: 'retention.business.update',
      entityType: 'business',
      entityId: businessId,
      businessId,
      details: changed,
    });
  });
  return businessView(deps, businessId);
};
