import { describe, expect, it } from 'bun:test';
import { BusinessContactLists } from '../business/business-input.ts';
import { OrderInput } from '../order/order-input.ts';
import { GlobalSettingsInput } from '../settings/global-settings.ts';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { isSameMachineName, MachineInput } from './machine-input.ts';

const errorsOf = (r: unknown) => (isArkErrors(r) ? fieldErrorsOf(r) : []);

describe('MachineInput', () => {
  it('accepts a name and a positive number of slots', () => {
    expect(MachineInput({ name: 'Locker 1', numberOfSlots: '40' })).toEqual({ name: 'Locker 1', numberOfSlots: 40 });
  });

  it('refuses a blank name and zero slots, each on its field', () => {
    expect(errorsOf(MachineInput({ name: ' ', numberOfSlots: 0 }))).toEqual([
      { path: 'name', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'numberOfSlots', id: 'INVALID_POSITIVE_INTEGER', message: 'Please enter a positive whole number' },
    ]);
  });

  it('refuses more slots than a machine can have, as a range, whether sent as a number or as text', () => {
    const range = {
      path: 'numberOfSlots',
      id: 'INVALID_RANGE',
      message: 'Invalid range, value must be an integer between 1 and 1000',
    };
    expect(errorsOf(MachineInput({ name: 'Locker 1', numberOfSlots: 1001 }))).toEqual([range]);
    expect(errorsOf(MachineInput({ name: 'Locker 1', numberOfSlots: '2147483648' }))).toEqual([range]);
    expect(MachineInput({ name: 'Locker 1', numberOfSlots: 1000 })).toEqual({ name: 'Locker 1', numberOfSlots: 1000 });
  });

  it("refuses a name longer than 100 characters with SPEC §5's length message, counting it trimmed", () => {
    expect(errorsOf(MachineInput({ name: 'x'.repeat(101), numberOfSlots: 4 }))).toEqual([
      { path: 'name', id: 'INVALID_LENGTH', message: 'Value must be at most 100 characters long' },
    ]);
    expect(MachineInput({ name: ` ${'x'.repeat(100)} `, numberOfSlots: 4 })).toEqual({
      name: 'x'.repeat(100),
      numberOfSlots: 4,
    });
  });

  it('refuses a machine name that differs only in case or blanks', () => {
    expect(isSameMachineName('Locker 1', ' locker 1 ')).toBe(true);
    expect(isSameMachineName('Locker 1', 'Locker 2')).toBe(false);
  });
});

describe('OrderInput', () => {
  it('parses charges to pence', () => {
    expect(
      OrderInput({ barcode: 'B1', businessId: 'b', patientId: 'p', collectionWindow: 7, prescriptionCharge: '9.90' }),
    ).toEqual({
      barcode: 'B1',
      businessId: 'b',
      patientId: 'p',
      collectionWindow: 7,
      prescriptionCharge: 990,
    });
  });

  it('reports each bad field', () => {
    const paths = errorsOf(
      OrderInput({ barcode: '', businessId: 'b', patientId: 'p', collectionWindow: -1, retailCharge: '1.234' }),
    ).map((e) => `${e.path}:${e.id}`);
    expect(paths).toEqual([
      'barcode:REQUIRED',
      'collectionWindow:INVALID_POSITIVE_INTEGER',
      'retailCharge:INVALID_CHARGE',
    ]);
  });

  it('requires the patient', () => {
    expect(errorsOf(OrderInput({ barcode: 'B', businessId: 'b' }))[0]?.path).toBe('patientId');
  });

  it('refuses a collection window over 90 days, and an over-long barcode', () => {
    const errors = errorsOf(
      OrderInput({ barcode: 'B'.repeat(65), businessId: 'b', patientId: 'p', collectionWindow: 91 }),
    );
    expect(errors.map((e) => `${e.path}:${e.id}:${e.message}`)).toEqual([
      'barcode:INVALID_LENGTH:Value must be at most 64 characters long',
      'collectionWindow:INVALID_RANGE:Invalid range, value must be an integer between 1 and 90',
    ]);
    expect(OrderInput({ barcode: 'B', businessId: 'b', patientId: 'p', collectionWindow: '90' })).toMatchObject({
      collectionWindow: 90,
    });
  });
});

describe('GlobalSettingsInput', () => {
  it('turns the typed charge into pence', () => {
    expect(GlobalSettingsInput({ nhsPrescriptionCharge: '9.90' })).toEqual({ nhsPrescriptionCharge: 990 });
    expect(errorsOf(GlobalSettingsInput({ nhsPrescriptionCharge: '9.999' }))[0]?.id).toBe('INVALID_CHARGE');
  });
});

describe('BusinessContactLists', () => {
  it('normalises keyholders and refuses repeats', () => {
    expect(
      errorsOf(
        BusinessContactLists({
          notificationEmails: ['a@b.co'],
          keyholdersMobileNumbers: ['07700 900123', '+447700900123'],
        }),
      ),
    ).toEqual([
      {
        path: 'keyholdersMobileNumbers.1',
        id: 'DUPLICATE_ITEM',
        message: 'Item with value +447700900123 already exists',
      },
    ]);
  });
});
