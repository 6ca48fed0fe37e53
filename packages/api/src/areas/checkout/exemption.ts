import {
  AppError,
  type DeclareExemptionInput,
  exemptionCodeLabels,
  exemptionMEndsAt,
  type FieldError,
  formatFileSize,
  formatPence,
  hrtOnlyExemptionCodes,
  imageKindOf,
  isoTime,
  type Order,
  signatureMaxBytes,
  validationMessage,
} from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import {
  auditOrder,
  eventRow,
  findOrder,
  insertOrderEventRows,
  publishOrder,
  type StoredOrder,
  toOrder,
} from '../orders/index.ts';
import { type Db, lockOrder, settleOrderPayment } from './repository.ts';
import { requireReach, requireUnpaidLiveOrder } from './rules.ts';

const refuse = (details: FieldError[]): never => {
  throw new AppError('VALIDATION', details.map((d) => d.message).join('; '), details);
};

/**
 * A drawn signature as sent: a `data:image/png;base64,…` (or JPEG) URL whose bytes really are a PNG or a
 * JPEG, at most 64 KB (SPEC §5's upload ids and wording, with this limit). Answers it trimmed.
 */
export function readSignature(dataUrl: string): string {
  const path = 'signature';
  const text = dataUrl.trim();
  const match = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]*={0,2})$/i.exec(text);
  if (!match) {
    return refuse([{ path, id: 'INVALID_FORMAT', message: 'The signature must be a PNG or JPEG image (a data URL)' }]);
  }
  const bytes = new Uint8Array(Buffer.from(match[2] ?? '', 'base64'));
  if (bytes.length > signatureMaxBytes) {
    const limit = formatFileSize(signatureMaxBytes);
    return refuse([
      {
        path,
        id: 'unacceptable-size',
        message: `Only files under ${limit} are accepted, your file has ${formatFileSize(bytes.length)}.`,
      },
    ]);
  }
  if (imageKindOf(bytes) === 'other') {
    return refuse([
      {
        path,
        id: 'unacceptable-extension',
        message: validationMessage.unacceptableExtension(['.png', '.jpg', '.jpeg']),
      },
    ]);
  }
  return text;
}

/** 409 unless the order can take a declaration: unpaid, charged, live, and none declared yet. */
function requireDeclarable(order: Order, now: number): void {
  requireUnpaidLiveOrder(order, now);
  // On an order with a retail charge too, a declaration leaves it unpaid: one is enough.
  if (order.exemptionCode !== null) {
    throw new AppError('CONFLICT', 'An exemption has been declared for this order already', [
      { path: 'orderId', id: 'EXEMPTION_DECLARED', message: `Exemption ${order.exemptionCode} declared already` },
    ]);
  }
}

/** M (Tax Credit exemption certificates) ended on 6 April 2025: refused on or after. */
function refuseEndedCode(code: DeclareExemptionInput['exemptionCode'], now: number): void {
  if (code === 'M' && now >= exemptionMEndsAt) {
    refuse([
      {
        path: 'exemptionCode',
        id: 'INVALID_EXEMPTION_CODE',
        message: 'Tax Credit exemption certificates (M) cannot be declared on or after 6 April 2025',
      },
    ]);
  }
}

/**
 * 409 for an order without an NHS prescription charge (a retail charge alone, or a pharmacy outside
 * England): an exemption waives that charge only, so there is nothing it could waive.
 */
function requirePrescriptionCharge(order: Order): void {
  if (order.prescriptionCharge <= 0) {
    throw new AppError(
      'CONFLICT',
      'This order has no NHS prescription charge: there is nothing to declare an exemption from',
      [{ path: 'orderId', id: 'NO_PRESCRIPTION_CHARGE', message: 'No NHS prescription charge on this order' }],
    );
  }
}

/** A declaration made: the order's event, its integration event and its audit. */
async function recordDeclaration(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  input: DeclareExemptionInput,
  declared: StoredOrder,
  { nameOfDeclarant, hrtOnly, retail, now }: { nameOfDeclarant: string; hrtOnly: boolean; retail: number; now: number },
): Promise<void> {
  const label = exemptionCodeLabels[input.exemptionCode];
  const who = input.onBehalfOfPatient ? `${nameOfDeclarant}, on behalf of the patient` : nameOfDeclarant;
  await insertOrderEventRows(tx, [
    eventRow(
      deps,
      actor,
      declared,
      'EXEMPTION_DECLARED',
      `Exemption ${input.exemptionCode} (${label}) declared by ${who}${hrtOnly ? ': valid for HRT items only' : ''}${
        retail > 0 ? `; the retail charge of ${formatPence(retail)} is still to pay` : ''
      }`,
      {
        exemptionCode: input.exemptionCode,
        nameOfDeclarant,
        onBehalfOfPatient: input.onBehalfOfPatient,
        declaredAt: now,
        ...(hrtOnly ? { hrtItemsOnly: true } : {}),
      },
    ),
  ]);
  await emitOrderEvent(tx, deps, 'order.payment_updated', toOrder(declared), {
    change: 'exemption_declared',
    exemptionCode: input.exemptionCode,
    nameOfDeclarant,
    onBehalfOfPatient: input.onBehalfOfPatient,
    declaredAt: isoTime(now),
    ...(hrtOnly ? { hrtItemsOnly: true } : {}),
  });
  await auditOrder(tx, deps, actor, 'order.declareExemption', declared, {
    exemptionCode: input.exemptionCode,
    onBehalfOfPatient: input.onBehalfOfPatient,
  });
}

/**
 * Declares an NHS prescription charge exemption for an unpaid, charged, live order: the order records
 * the code and the declaration (who, for whom, the signature), and the timeline says so. It becomes
 * `exemption_declared` when the prescription charge was all it owed; with a retail charge too (which no
 * NHS exemption covers) it stays `unpaid`, owing the retail charge alone, until that is paid by card.
 * M is refused for declarations on or after 6 April 2025; W covers HRT items only,
 * which an order does not list, so it is accepted and the event says so for staff to check.
 */
export async function declareExemption(
  deps: AppDeps,
  actor: Actor,
  input: DeclareExemptionInput,
): Promise<{ order: Order }> {
  const signature = readSignature(input.signature);
  const now = deps.now();
  refuseEndedCode(input.exemptionCode, now);
  const found = toOrder(requireReach(actor, await findOrder(deps.db, input.orderId), input.orderId));
  requireDeclarable(found, now);
  requirePrescriptionCharge(found);
  const nameOfDeclarant = input.nameOfDeclarant.trim();
  const hrtOnly = hrtOnlyExemptionCodes.includes(input.exemptionCode);
  const row = await deps.db.transaction().execute(async (tx) => {
    // Checked again under the order's lock: a payment or another declaration may have come meanwhile.
    const locked = await lockOrder(tx, input.orderId);
    if (!locked) throw new AppError('NOT_FOUND', `No order with id ${input.orderId}`);
    const order = toOrder(locked);
    requireDeclarable(order, now);
    // The retail charge is no NHS charge: with one, the order stays unpaid for it (paid by card later).
    const retail = order.retailCharge;
    const declared = await settleOrderPayment(tx, order.id, {
      payment_status: retail > 0 ? 'unpaid' : 'exemption_declared',
      exemption_code: input.exemptionCode,
      exemption_details: JSON.stringify({
        nameOfDeclarant,
        onBehalfOfPatient: input.onBehalfOfPatient,
        signature,
        declaredAt: now,
      }),
      updated: now,
    });
    if (!declared) throw new AppError('CONFLICT', 'This order is settled already');
    await recordDeclaration(tx, deps, actor, input, declared, { nameOfDeclarant, hrtOnly, retail, now });
    return declared;
  });
  publishOrder(deps, row);
  return { order: toOrder(row) };
}
