import {
  AppError,
  type Contract,
  type Nation,
  nationHasPrescriptionCharges,
  nationNames,
  type ParsedInputOf,
} from '@medlocker/core';
import { type Actor, actorIdentity } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import type { AppDeps } from '../../deps.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { loadWaitingBag } from './locker-service.ts';
import { eventRow, publishOrder } from './moves.ts';
import { newPin, pinLookup, sealPin } from './pin.ts';
import {
  findBusinessForOrder,
  findMachineForOrder,
  findPatientForOrder,
  insertOrderEventRows,
  insertOrderRow,
  liveOrderWithBarcode,
  nextCounter,
  type OrderRow,
  toOrder,
} from './repository.ts';

type In = ParsedInputOf<Contract['orders']['create']>;

const field = (path: string, id: string, message: string) =>
  new AppError('VALIDATION', message, [{ path, id, message }]);

/** How many times to draw a new PIN when the one drawn is live at the machine already (1 in 10^8 × orders). */
const PIN_DRAWS = 5;

/**
 * Creates an order (SPEC §5 order create): for a current patient of a business that is not archived,
 * in the machine given if any (of the same business, not archived). Charges need the business's charge
 * settings on. The reference, the machine sequence and the PIN are unique by database rules, so any
 * number of concurrent creates stay correct.
 */
export async function createOrder(
  deps: AppDeps,
  actor: Actor,
  input: In,
  via: 'portal' | 'integration-api' | 'qr-code' = 'portal',
): Promise<OrderRow> {
  const business = await findBusinessForOrder(deps.db, input.businessId);
  if (!business) throw new AppError('NOT_FOUND', `No business with id ${input.businessId}`);
  if (business.archived_at !== null) throw new AppError('CONFLICT', 'An archived business cannot have orders added');
  const patient = await findPatientForOrder(deps.db, input.patientId);
  if (!patient || patient.business_id !== input.businessId) {
    throw field('patientId', 'NOT_FOUND', 'No patient with this id in this business');
  }
  if (patient.deleted_at !== null) throw field('patientId', 'DELETED', 'This patient has been deleted');
  const machineId = input.machineId ?? null;
  const machine = machineId === null ? undefined : await findMachineForOrder(deps.db, machineId);
  if (machineId !== null && (!machine || machine.business_id !== input.businessId)) {
    throw field('machineId', 'NOT_FOUND', 'No machine with this id in this business');
  }
  if (machine && machine.archived_at !== null) {
    throw field('machineId', 'ARCHIVED', 'This machine is archived: choose another');
  }
  const { settings } = await effectiveFeatureSettings(deps.db, input.businessId);
  const prescriptionCharge = input.prescriptionCharge ?? 0;
  const retailCharge = input.retailCharge ?? 0;
  const noChargesIn = (nation: Nation) =>
    field(
      'prescriptionCharge',
      'NOT_ENABLED',
      `There are no NHS prescription charges in ${nationNames[nation]}: leave the prescription charge empty`,
    );
  if (prescriptionCharge > 0 && !nationHasPrescriptionCharges(settings.nation)) throw noChargesIn(settings.nation);
  if (prescriptionCharge > 0 && !settings.charges.enabled) {
    throw field('prescriptionCharge', 'NOT_ENABLED', 'Prescription charges are not enabled for this business');
  }
  if (retailCharge > 0 && !settings.retailCharges.enabled) {
    throw field('retailCharge', 'NOT_ENABLED', 'Retail charges are not enabled for this business');
  }
  const duplicate = () =>
    new AppError('CONFLICT', 'Another current order of this business has this barcode', [
      { path: 'barcode', id: 'DUPLICATE_ITEM', message: 'Another current order already has this barcode' },
    ]);
  if (await liveOrderWithBarcode(deps.db, input.businessId, input.barcode)) throw duplicate();

  const who = actorIdentity(actor);
  const now = deps.now();
  const key = deps.config.secretsKey;
  // The numbers are taken first, each in its own one-statement transaction: held until the order's
  // commit, the counter's row lock made every create of a business wait for the one before
  // (bench/orders: 155 creates/s against ~600). A create that fails later leaves a gap, never a repeat.
  const reference = String(await nextCounter(deps.db, `reference:${input.businessId}`)).padStart(6, '0');
  const machineSequence = machine ? await nextCounter(deps.db, `machine:${machine.id}`) : null;
  const row = await deps.db.transaction().execute(async (tx) => {
    const id = Bun.randomUUIDv7();
    for (let draw = 0; draw < PIN_DRAWS; draw++) {
      const pin = newPin();
      const inserted = await insertOrderRow(tx, {
        id,
        reference,
        business_id: input.businessId,
        business_name: business.name,
        patient_id: patient.id,
        patient_name: patient.full_name,
        barcode: input.barcode,
        machine_id: machine?.id ?? null,
        machine_name: machine?.name ?? null,
        machine_sequence: machineSequence,
        machine_payment: machine?.payments_enabled ?? false,
        pin: sealPin(key, id, pin),
        pin_lookup: pinLookup(key, pin),
        payment_status: prescriptionCharge + retailCharge > 0 ? 'unpaid' : 'not_required',
        prescription_charge: prescriptionCharge,
        retail_charge: retailCharge,
        collection_window: input.collectionWindow ?? settings.orderCollection.defaultCollectionWindow,
        created_via: via,
        created_by: who.userId ?? who.display,
        updated_by: who.userId ?? who.display,
        user_id: who.userId,
        machine_details: machine
          ? JSON.stringify({ location: null, machineId: machine.id, machineName: machine.name, pin: null })
          : null,
        patient_details: JSON.stringify({
          displayId: patient.display_id,
          email: patient.email,
          mobileNumber: patient.mobile_number,
        }),
        created: now,
        updated: now,
      });
      if (inserted) {
        if (prescriptionCharge > 0) {
          // Read again now the row is in: its foreign key held the business row, so a move out of England
          // either committed before (seen here, and refused) or waits for this order and counts it (409).
          const current = (await effectiveFeatureSettings(tx, input.businessId)).settings.nation;
          if (!nationHasPrescriptionCharges(current)) throw noChargesIn(current);
        }
        const events = [
          eventRow(deps, actor, inserted, 'ORDER_CREATED', `Order ${reference} created`, {
            machineId: inserted.machine_id,
            collectionWindow: inserted.collection_window,
          }),
        ];
        await insertOrderEventRows(tx, events);
        await audit(tx, deps, actor, {
          action: 'order.create',
          entityType: 'order',
          entityId: id,
          businessId: input.businessId,
          details: { via },
        });
        // A bag with this barcode may already wait in a locker: then the order is loaded at once. Its
        // order.created goes just before its order.loaded, after the load's locks (the bag, the machine's
        // counter): the integration client's row is locked last (docs/decisions/integration.md "Integration events").
        const created = () => emitOrderEvent(tx, deps, 'order.created', toOrder(inserted));
        const loaded = await loadWaitingBag(tx, deps, actor, inserted, created);
        if (!loaded) await created();
        return loaded ?? inserted;
      }
      // Nothing written: the barcode went live meanwhile (409), or the PIN is live at this machine (draw again).
      if (await liveOrderWithBarcode(tx, input.businessId, input.barcode)) throw duplicate();
    }
    throw new AppError('UNAVAILABLE', 'Could not find a free PIN for this machine: try again');
  });
  publishOrder(deps, row);
  return row;
}
