import { describe, expect, it } from 'bun:test';
import { CsvFileError, csvFileMessages } from './csv-file.ts';
import {
  checkOrderMapping,
  checkOrderRow,
  checkOrderRows,
  guessOrderMapping,
  type OrderCsvMapping,
  patientIdByDisplayId,
  readCsvRecords,
  rowRefusalOf,
} from './order-csv.ts';

const business = { businessId: 'b1' };
const MAPPING: OrderCsvMapping = ['barcode', 'patientDisplayId', 'collectionWindow', 'prescriptionCharge'];

describe('order CSV columns', () => {
  it('guesses the fields from the cli header names, the console labels and common words, each once', () => {
    expect(guessOrderMapping(['Barcode', 'NHS Number', 'Collection window (days)', 'Prescription charge (£)'])).toEqual(
      MAPPING,
    );
    expect(guessOrderMapping(['patientId', 'machineId', 'retailCharge', 'Notes', 'barcode', 'BARCODE'])).toEqual([
      'patientId',
      'machineId',
      'retailCharge',
      null,
      'barcode',
      null,
    ]);
  });

  it('refuses a mapping without a barcode, without a patient, with both patient fields, or a field twice', () => {
    expect(checkOrderMapping(MAPPING)).toEqual([]);
    expect(checkOrderMapping([null, 'patientId'])).toEqual(['Choose the column that holds the Barcode']);
    expect(checkOrderMapping([null, 'patientId'], { barcodeOptional: true })).toEqual([]);
    expect(checkOrderMapping(['barcode'])).toEqual([
      'Choose one column for the patient: Patient ID or Patient (internal id)',
    ]);
    expect(checkOrderMapping(['barcode', 'patientId', 'patientDisplayId'])).toHaveLength(1);
    expect(checkOrderMapping(['barcode', 'patientId', 'barcode'])).toEqual([
      'Barcode is chosen for more than one column',
    ]);
  });
});

describe('order CSV rows', () => {
  it('reads a good row into orders/create input, leaving blank optional cells out', () => {
    const checked = checkOrderRow([' BAG-1 ', '943 476 5919', '', '9.90'], 2, MAPPING, business);
    expect(checked).toEqual({
      order: {
        row: 2,
        input: { businessId: 'b1', barcode: 'BAG-1', patientId: '943 476 5919', prescriptionCharge: '9.90' },
        patientDisplayId: '943 476 5919',
      },
    });
  });

  it("names each bad field in SPEC §5's words, the patient by the column the file gave", () => {
    const checked = checkOrderRow(['', '', '0', '9.999'], 3, MAPPING, business);
    expect(checked).toEqual({
      error: {
        row: 3,
        errors: [
          'barcode: Please enter a value',
          'patientDisplayId: Please enter a value',
          'collectionWindow: Please enter a positive whole number',
          'prescriptionCharge: Please enter a valid amount, e.g. “9.99”',
        ],
      },
    });
  });

  it('generates a barcode for a blank one when the business generates them, and keeps a given one', () => {
    const options = { ...business, generateBarcode: () => 'MLGENERATED1' };
    const { good, errors } = checkOrderRows(
      [
        { row: 2, cells: ['', 'p1'] },
        { row: 3, cells: ['OWN-1', 'p2'] },
        { row: 4, cells: ['', ''] },
      ],
      ['barcode', 'patientId'],
      options,
    );
    expect(good.map((g) => g.input.barcode)).toEqual(['MLGENERATED1', 'OWN-1']);
    expect(errors).toEqual([{ row: 4, errors: ['patientId: Please enter a value'] }]);
  });

  it('numbers records as a spreadsheet does, skipping empty lines, and refuses a file with no data', async () => {
    const records = await readCsvRecords('barcode,patientId\n\nBAG-1,p1\n,\n"BAG\n2",p2\n');
    expect(records.map((r) => r.row)).toEqual([1, 3, 5]);
    expect(records[2]?.cells).toEqual(['BAG\n2', 'p2']);
    const empty = readCsvRecords('\n ,\n');
    await expect(empty).rejects.toBeInstanceOf(CsvFileError);
    await expect(empty).rejects.toThrow(csvFileMessages.noData);
  });

  it("words a server's refusal by field, or by its message when it names none", () => {
    expect(
      rowRefusalOf({ message: 'Conflict', details: [{ path: 'barcode', message: 'already on a live order' }] }),
    ).toEqual(['barcode: already on a live order']);
    expect(rowRefusalOf({ message: 'Patient not found', details: [] })).toEqual(['Patient not found']);
  });
});

describe('patient lookup by Patient ID', () => {
  it('finds the exact ID, spaces and case aside, across pages of prefix matches, or null', async () => {
    const pages = [
      { patients: [{ id: 'x', displayId: '943 476 59190' }], nextToken: 't' },
      { patients: [{ id: 'p9', displayId: '9434765919' }], nextToken: null },
    ];
    const asked: (string | undefined)[] = [];
    const list = async (input: { nextToken?: string }) => {
      asked.push(input.nextToken);
      return pages[asked.length - 1] ?? { patients: [], nextToken: null };
    };
    expect(await patientIdByDisplayId(list, 'b1', '943 476 5919')).toBe('p9');
    expect(asked).toEqual([undefined, 't']);
    const none = async () => ({ patients: [{ id: 'x', displayId: 'A1' }], nextToken: null });
    expect(await patientIdByDisplayId(none, 'b1', 'a2')).toBeNull();
  });
});
