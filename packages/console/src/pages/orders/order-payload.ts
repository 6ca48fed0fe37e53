import type { OrderInput } from '@medlocker/core';

/** The Machine select's option for "no machine yet": the locker that loads the bag decides. */
export const anyMachine = '__any__';

/** What the form offers beyond its fields, from the business's feature settings. */
export type OrderFormChoices = {
  businessId: string;
  patientId: string | null;
  machineId: string;
  prescriptionCharges: boolean;
  retailCharges: boolean;
};

const textOf = (data: FormData, name: string) => String(data.get(name) ?? '').trim();

/**
 * orders/create's input from the form as typed: the server checks it all (SPEC §5 words beside each
 * field), so nothing is refused here. Blank optional fields are left out (no machine, the business's
 * default window, no charge); a charge field the business does not show is never sent.
 */
export function orderPayloadOf(data: FormData, choices: OrderFormChoices): OrderInput {
  const window = textOf(data, 'collectionWindow');
  const prescriptionCharge = choices.prescriptionCharges ? textOf(data, 'prescriptionCharge') : '';
  const retailCharge = choices.retailCharges ? textOf(data, 'retailCharge') : '';
  return {
    businessId: choices.businessId,
    // Sent blank when none is chosen, so the server's REQUIRED lands beside the Patient field.
    patientId: choices.patientId ?? '',
    barcode: textOf(data, 'barcode'),
    ...(choices.machineId !== anyMachine ? { machineId: choices.machineId } : {}),
    ...(window ? { collectionWindow: window } : {}),
    ...(prescriptionCharge ? { prescriptionCharge } : {}),
    ...(retailCharge ? { retailCharge } : {}),
  };
}
