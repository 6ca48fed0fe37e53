import { AppError, type Nation, nationHasPrescriptionCharges, nationNames } from '@medlocker/core';
import { type Actor, actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In } from '../../context/method.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { loadWaitingBag } from './locker-service.ts';
import { type Db, type NewOrderRow, type StoredOrder, toOrder } from './mapping-repository.ts';
import { auditOrder, eventRow, publishOrder } from './moves.ts';
import { newPin, pinLookup, sealPin } from './pin.ts';
import {
  findBusinessForOrder,
  findMachineForOrder,
  findPatientForOrder,
  insertOrderEventRows,
  insertOrderRow,
  liveOrderWithBarcode,
  nextCounter,
} from './repository.ts';

type Input = In<'orders/create'>;

const field = (path: string, id: string, message: string) =>
  new AppError('VALIDATION', message, [{ path, id, message }]);

/** How many times to draw a new PIN when the one drawn is live at the machine already (1 in 10^8 × orders). */
const PIN_DRAWS = 5;

const noChargesIn = (nation: Nation) =>
  field(
    'prescriptionCharge',
    'NOT_ENABLED',
    `There are no NHS prescription charges in ${nationNames[nation]}: leave the prescription charge empty`,
  );

const duplicate = () =>
  new AppError('CONFLICT', 'Another current order of this business has this barcode', [
    { path: 'barcode', id: 'DUPLICATE_ITEM', message: 'Another current order already has this barcode' },
  ]);

/**
 * The checks before an order is made: a current patient of a business that is not archived, a machine
 * of the same business that is not archived, charges the business's settings allow, a barcode no live
 * order has. What they read, for the order's row.
 */
async function readForCreate(deps: AppDeps, input: Input) {
  const business = await findBusinessForOrder(deps.db, input.businessId);
  if (!business) throw new AppError('NOT_FOUND', `No business with id ${input.businessId}`);
  if (business.archivedAt !== null) throw new AppError('CONFLICT', 'An archived business cannot have orders added');
  const patient = await findPatientForOrder(deps.db, input.patientId);
  if (!patient || patient.businessId !== input.businessId) {
    throw field('patientId', 'NOT_FOUND', 'No patient with this id in this business');
  }
  if (patient.deletedAt !== null) throw field('patientId', 'DELETED', 'This patient has been deleted');
  const machineId = input.machineId ?? null;
  const machine = machineId === null ? undefined : await findMachineForOrder(deps.db, machineId);
  if (machineId !== null && (!machine || machine.businessId !== input.businessId)) {
    throw field('machineId', 'NOT_FOUND', 'No machine with this id in this business');
  }
  if (machine && machine.archivedAt !== null) {
    throw field('machineId', 'ARCHIVED', 'This machine is archived: choose another');
  }
  const { settings } = await effectiveFeatureSettings(deps.db, input.businessId);
  const prescriptionCharge = input.prescriptionCharge ?? 0;
  const retailCharge = input.retailCharge ?? 0;
  if (prescriptionCharge > 0 && !nationHasPrescriptionCharges(settings.nation)) throw noChargesIn(settings.nation);
  if (prescriptionCharge > 0 && !settings.charges.enabled) {
    throw field('prescriptionCharge', 'NOT_ENABLED', 'Prescription charges are not enabled for this business');
  }
  if (retailCharge > 0 && !settings.retailCharges.enabled) {
    throw field('retailCharge', 'NOT_ENABLED', 'Retail charges are not enabled for this business');
  }
  if (await liveOrderWithBarcode(deps.db, input.businessId, input.barcode)) throw duplicate();
  const collectionWindow = input.collectionWindow ?? settings.orderCollection.defaultCollectionWindow;
  return { business, patient, machine, prescriptionCharge, retailCharge, collectionWindow };
}

type Via = 'portal' | 'integration-api' | 'qr-code';

type Create = Awaited<ReturnType<typeof readForCreate>> & {
  id: string;
  reference: string;
  machineSequence: number | null;
  via: Via;
  now: number;
};

/** The new order's row, with this PIN in its two stored forms. */
function newOrderRow(deps: AppDeps, actor: Actor, input: Input, c: Create, pin: string): NewOrderRow {
  const { machine, patient } = c;
  const who = actorIdentity(actor);
  const now = c.now;
  const key = deps.config.secretsKey;
  return {
    id: c.id,
    reference: c.reference,
    business_id: input.businessId,
    business_name: c.business.name,
    patient_id: patient.id,
    patient_name: patient.fullName,
    barcode: input.barcode,
    machine_id: machine?.id ?? null,
    machine_name: machine?.name ?? null,
    machine_sequence: c.machineSequence,
    machine_payment: machine?.paymentsEnabled ?? false,
    pin: sealPin(key, c.id, pin),
    pin_lookup: pinLookup(key, pin),
    payment_status: c.prescriptionCharge + c.retailCharge > 0 ? 'unpaid' : 'not_required',
    prescription_charge: c.prescriptionCharge,
    retail_charge: c.retailCharge,
    collection_window: c.collectionWindow,
    created_via: c.via,
    created_by: who.userId ?? who.display,
    updated_by: who.userId ?? who.display,
    user_id: who.userId,
    machine_details: machine
      ? JSON.stringify({ location: null, machineId: machine.id, machineName: machine.name, pin: null })
      : null,
    patient_details: JSON.stringify({
      displayId: patient.displayId,
      email: patient.email,
      mobileNumber: patient.mobileNumber,
    }),
    created: now,
    updated: now,
  };
}

/**
 * What follows the insert, in its transaction: the nation checked again, the order's event, its audit,
 * its webhook, and a bag already waiting for it loaded. The order as it now is.
 */
async function afterInsert(tx: Db, deps: AppDeps, actor: Actor, input: Input, c: Create, inserted: StoredOrder) {
  if (c.prescriptionCharge > 0) {
    // Read again now the row is in: its foreign key held the business row, so a move out of England
    // either committed before (seen here, and refused) or waits for this order and counts it (409).
    const current = (await effectiveFeatureSettings(tx, input.businessId)).settings.nation;
    if (!nationHasPrescriptionCharges(current)) throw noChargesIn(current);
  }
  const events = [
    eventRow(deps, actor, inserted, 'ORDER_CREATED', `Order ${c.reference} created`, {
      machineId: inserted.machineId,
      collectionWindow: inserted.collectionWindow,
    }),
  ];
  await insertOrderEventRows(tx, events);
  await auditOrder(tx, deps, actor, 'order.create', { id: c.id, businessId: input.businessId }, { via: c.via });
  // A bag with this barcode may already wait in a locker: then the order is loaded at once. Its
  // order.created goes just before its order.loaded, after the load's locks (the bag, the machine's
  // counter): the integration client's row is locked last (docs/decisions/integration.md "Integration events").
  const created = () => emitOrderEvent(tx, deps, 'order.created', toOrder(inserted));
  const loaded = await loadWaitingBag(tx, deps, actor, inserted, created);
  if (!loaded) await created();
  return loaded ?? inserted;
}

/** Inserts the order in `tx`, drawing PINs until one is free at its machine, and what follows the insert. */
async function insertNew(tx: Db, deps: AppDeps, actor: Actor, input: Input, c: Create): Promise<StoredOrder> {
  for (let draw = 0; draw < PIN_DRAWS; draw++) {
    const inserted = await insertOrderRow(tx, newOrderRow(deps, actor, input, c, newPin()));
    if (inserted) return afterInsert(tx, deps, actor, input, c, inserted);
    // Nothing written: the barcode went live meanwhile (409), or the PIN is live at this machine (draw again).
    if (await liveOrderWithBarcode(tx, input.businessId, input.barcode)) throw duplicate();
  }
  throw new AppError('UNAVAILABLE', 'Could not find a free PIN for this machine: try again');
}

/**
 * Creates an order (SPEC §5 order create): for a current patient of a business that is not archived,
 * in the machine given if any (of the same business, not archived). Charges need the business's charge
 * settings on. The reference, the machine sequence and the PIN are unique by database rules, so any
 * number of concurrent creates stay correct.
 */
export async function createOrder(
  deps: AppDeps,
  actor: Actor,
  input: Input,
  via: Via = 'portal',
): Promise<StoredOrder> {
  const read = await readForCreate(deps, input);
  const now = deps.now();
  // The numbers are taken first, each in its own one-statement transaction: held until the order's
  // commit, the counter's row lock made every create of a business wait for the one before
  // (bench/orders: 155 creates/s against ~600). A create that fails later leaves a gap, never a repeat.
  const reference = String(await nextCounter(deps.db, `reference:${input.businessId}`)).padStart(6, '0');
  const machineSequence = read.machine ? await nextCounter(deps.db, `machine:${read.machine.id}`) : null;
  const row = await deps.db.transaction().execute(async (tx) => {
    const c: Create = { ...read, id: Bun.randomUUIDv7(), reference, machineSequence, via, now };
    return insertNew(tx, deps, actor, input, c);
  });
  publishOrder(deps, row);
  return row;
}

/**
 * Creates an order inside the caller's transaction: a locker's event that makes its order (a bag's QR
 * code) commits both or neither, so a replayed event cannot make a second order. The reference counter
 * is held until that commit (rare: one bag loaded). The caller publishes the order once committed.
 */
export async function createOrderIn(tx: Db, deps: AppDeps, actor: Actor, input: Input, via: Via): Promise<StoredOrder> {
  const read = await readForCreate({ ...deps, db: tx }, input);
  const reference = String(await nextCounter(tx, `reference:${input.businessId}`)).padStart(6, '0');
  const machineSequence = read.machine ? await nextCounter(tx, `machine:${read.machine.id}`) : null;
  const c: Create = { ...read, id: Bun.randomUUIDv7(), reference, machineSequence, via, now: deps.now() };
  return insertNew(tx, deps, actor, input, c);
}
