import { AppError, type BagLabel, initialsOf } from '@medlocker/core';
import { auditReads } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Service } from '../../context/method.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { labelsPdf } from './label-pdf.ts';
import { findLabelRows, type LabelRow } from './labels-repository.ts';

/*
 * Bag labels (docs/decisions/orders.md, Bag labels). Whoever may read an order may print its label:
 * the contract's access is the order read's, and each label read is audited as an order read is.
 */

const DAY_MS = 86_400_000;

/** The labels of these orders, in the order asked (an id twice gives its label twice). */
export const getLabels: Service<'orders/getLabels'> = async (deps, actor, input) => ({
  labels: await readLabels(deps, actor, input.ids, 'getLabels'),
});

/** The same labels as one PDF (GET /api/orders/labels.pdf), audited the same way. */
export async function getLabelsPdf(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'orders/getLabels'>,
): Promise<Uint8Array> {
  return labelsPdf(await readLabels(deps, actor, input.ids, 'labels.pdf'));
}

async function readLabels(deps: AppDeps, actor: StaffActor, ids: readonly string[], via: string): Promise<BagLabel[]> {
  const rows = new Map((await findLabelRows(deps.db, [...new Set(ids)])).map((r) => [r.id, r]));
  const missing = ids.find((id) => !rows.has(id));
  if (missing !== undefined) throw new AppError('NOT_FOUND', `No order with id ${missing}`);
  const sizes = new Map<string, BagLabel['size']>();
  for (const businessId of new Set([...rows.values()].map((r) => r.businessId))) {
    sizes.set(businessId, (await effectiveFeatureSettings(deps.db, businessId)).settings.labels.size);
  }
  const now = deps.now();
  const labels = ids.map((id) =>
    labelOf(rows.get(id) as LabelRow, sizes.get((rows.get(id) as LabelRow).businessId), now),
  );
  await auditReads(
    deps.db,
    deps,
    actor,
    [...rows.values()].map((r) => ({
      action: 'order.read',
      entityType: 'order',
      entityId: r.id,
      businessId: r.businessId,
      details: { via },
    })),
  );
  return labels;
}

function labelOf(row: LabelRow, size: BagLabel['size'] | undefined, now: number): BagLabel {
  const { initials, surname } = patientOnLabel(row);
  return {
    orderId: row.id,
    businessId: row.businessId,
    reference: row.reference,
    barcode: row.barcode,
    patientInitials: initials,
    patientSurname: surname,
    machineName: row.machineName,
    collectBy: row.expiresAt ?? now + row.collectionWindow * DAY_MS,
    collectByKnown: row.expiresAt !== null,
    size: size ?? 'roll62',
  };
}

/**
 * The patient's initials and surname: from the patient's given and family names, or (a record without
 * them) the order's copy of the full name, its last word the surname.
 */
function patientOnLabel(row: LabelRow): { initials: string; surname: string } {
  if (row.familyName?.trim()) return { initials: initialsOf(row.givenName ?? ''), surname: row.familyName.trim() };
  const words = row.patientName.trim().split(/\s+/);
  const surname = words.pop() ?? '';
  return { initials: initialsOf(words.join(' ')), surname };
}
