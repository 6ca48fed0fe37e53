import { AppError, checkQrCode, type QrPayload, readQrCode } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { type Actor, actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Service } from '../../context/method.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox, newSecret } from '../../secrets/secret-box.ts';
import { effectiveFeatureSettings, requireEditableBusiness } from '../business-settings/index.ts';
import {
  createOrder,
  createOrderIn,
  findOrder,
  liveOrderWithBarcode,
  type StoredOrder,
  toOrder,
} from '../orders/index.ts';
import { findCurrentPatientByDisplayId } from '../patients/index.ts';
import { type Db, findSigningKey, putSigningKey } from './repository.ts';

const refused = (id: string, message: string) => new AppError('VALIDATION', message, [{ path: 'qrCode', id, message }]);

/** What a scanned code asks for: the order it made before (scanned again), or the input of a new one. */
export type QrOrder = { existing: StoredOrder } | { input: In<'orders/create'> };

/**
 * Reads and checks a scanned QR code for this business (docs/decisions/orders.md "QR-code orders"):
 * well formed, for this business, the business's switch on, signed with its key, not expired, naming
 * a current patient. A live order with the barcode for the same patient is the order (a second scan);
 * for another patient the barcode is taken (409). Refusals change nothing.
 */
export async function resolveQrCode(
  db: Db,
  deps: AppDeps,
  businessId: string,
  text: string,
  /** The barcode the locker read from the bag, when one did: the code must name the same. */
  bagBarcode?: string,
): Promise<QrOrder> {
  const code = readQrCode(text);
  if (!code.ok) throw refused(code.problem.id, code.problem.message);
  const { payload } = code;
  if (bagBarcode !== undefined && payload.barcode !== bagBarcode) {
    throw refused('INVALID_QR_CODE', `This QR code is for the barcode ${payload.barcode}, not ${bagBarcode}`);
  }
  if (payload.business !== businessId) throw refused('OTHER_BUSINESS', 'This QR code is for another business');
  const { settings } = await effectiveFeatureSettings(db, businessId);
  // Refused as the order create refuses charges a business has not switched on: 400 NOT_ENABLED (a 403
  // would say the caller may not call this at all).
  if (!settings.qrCodeIntegration.enabled) {
    throw refused('NOT_ENABLED', 'QR-code integration is not enabled for this business');
  }
  const stored = await findSigningKey(db, businessId);
  if (!stored) throw refused('QR_CODE_SIGNATURE', 'This business has no QR signing key yet');
  const key = createSecretBox(deps.config.secretsKey).open(stored.sealed, sealingContexts.qrSigningKey(businessId));
  const problem = await checkQrCode(key, code, deps.now());
  if (problem) throw refused(problem.id, problem.message);
  return orderOf(db, businessId, payload);
}

async function orderOf(db: Db, businessId: string, payload: QrPayload): Promise<QrOrder> {
  const patient = await findCurrentPatientByDisplayId(db, businessId, payload.patient.trim());
  if (!patient) throw refused('NOT_FOUND', `No current patient of this business has the id ${payload.patient}`);
  const live = await liveOrderWithBarcode(db, businessId, payload.barcode);
  if (live && live.patientId !== patient.id) {
    throw new AppError('CONFLICT', 'Another current order of this business has this barcode', [
      { path: 'qrCode', id: 'DUPLICATE_ITEM', message: 'Another current order already has this barcode' },
    ]);
  }
  const existing = live && (await findOrder(db, live.id));
  if (existing) return { existing };
  return {
    input: {
      businessId,
      patientId: patient.id,
      barcode: payload.barcode,
      ...(payload.collectionWindow === undefined ? {} : { collectionWindow: payload.collectionWindow }),
    },
  };
}

/** Staff scanned a bag's QR code at the console: its order, made now or before. */
export const createOrderFromQr: Service<'qrCodes/createOrder'> = async (deps, actor, input) => {
  const found = await resolveQrCode(deps.db, deps, input.businessId, input.qrCode);
  if ('existing' in found) return { order: toOrder(found.existing), existing: true };
  try {
    return { order: toOrder(await createOrder(deps, actor, found.input, 'qr-code')), existing: false };
  } catch (error) {
    // The same code scanned twice at once: the other scan made the order.
    if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
    const again = await resolveQrCode(deps.db, deps, input.businessId, input.qrCode);
    if ('existing' in again) return { order: toOrder(again.existing), existing: true };
    throw error;
  }
};

/**
 * A locker loaded a bag whose QR code it read: the code's order, created in the locker event's own
 * transaction (so a replayed event makes none) when none is live. Null when the code is refused: the
 * bag is kept as any bag without an order, and `refusal` says why.
 */
export async function orderForScannedBag(
  tx: Db,
  deps: AppDeps,
  actor: Extract<Actor, { kind: 'locker' }>,
  bag: { barcode: string; qrCode: string },
): Promise<{ created: StoredOrder | null; refusal: string | null }> {
  try {
    const found = await resolveQrCode(tx, deps, actor.businessId, bag.qrCode, bag.barcode);
    if ('existing' in found) return { created: null, refusal: null };
    return { created: await createOrderIn(tx, deps, actor, found.input, 'qr-code'), refusal: null };
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') throw error;
    return { created: null, refusal: error.message };
  }
}

export const getSigningKey: Service<'qrCodes/getSigningKey'> = async (deps, _actor, input) => {
  const stored = await findSigningKey(deps.db, input.businessId);
  return { key: stored ? { created: stored.created, createdBy: stored.createdBy } : null };
};

/** A new key (`mlqr_` + 32 random bytes, base64url), sealed; shown this once. Audited, never the key. */
export const rotateSigningKey: Service<'qrCodes/rotateSigningKey'> = async (deps, actor, input) => {
  const key = newSecret('mlqr');
  const created = deps.now();
  await deps.db.transaction().execute(async (tx) => {
    await requireEditableBusiness(tx, input.businessId);
    const sealed = createSecretBox(deps.config.secretsKey).seal(key, sealingContexts.qrSigningKey(input.businessId));
    await putSigningKey(tx, input.businessId, sealed, created, actorIdentity(actor).display ?? '');
    await audit(tx, deps, actor, {
      action: 'qrSigningKey.rotate',
      entityType: 'business',
      entityId: input.businessId,
      businessId: input.businessId,
    });
  });
  return { key, created };
};
