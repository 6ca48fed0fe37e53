import { describe, expect, it } from 'bun:test';
import { anyMachine, type OrderFormChoices, orderPayloadOf } from './order-payload.ts';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

const choices: OrderFormChoices = {
  businessId: 'b_1',
  patientId: 'p_1',
  machineId: 'm_1',
  prescriptionCharges: true,
  retailCharges: true,
};

describe('the create-order payload', () => {
  it('sends every field filled in, trimmed, charges as typed for the server to check', () => {
    const data = form({ barcode: ' B-1 ', collectionWindow: '3', prescriptionCharge: '9.9x', retailCharge: '2.50' });
    expect(orderPayloadOf(data, choices)).toEqual({
      businessId: 'b_1',
      patientId: 'p_1',
      barcode: 'B-1',
      machineId: 'm_1',
      collectionWindow: '3',
      prescriptionCharge: '9.9x',
      retailCharge: '2.50',
    });
  });

  it('leaves out no machine, a blank window and blank charges, and sends no patient as blank', () => {
    const data = form({ barcode: '', collectionWindow: '', prescriptionCharge: ' ', retailCharge: '' });
    expect(orderPayloadOf(data, { ...choices, patientId: null, machineId: anyMachine })).toEqual({
      businessId: 'b_1',
      patientId: '',
      barcode: '',
    });
  });

  it('never sends a charge the business does not show', () => {
    const data = form({ barcode: 'B', prescriptionCharge: '9.90', retailCharge: '1.00' });
    const payload = orderPayloadOf(data, { ...choices, prescriptionCharges: false, retailCharges: false });
    expect(payload).not.toHaveProperty('prescriptionCharge');
    expect(payload).not.toHaveProperty('retailCharge');
  });
});
