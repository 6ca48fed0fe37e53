import Papa from 'papaparse';
import type { CsvFieldKind } from '../patient/imported-patient.ts';
import { csvFieldLabels } from './mapping.ts';

/** The columns of the example file, in its order; its first line names them as the mapping screen does. */
export const exampleCsvColumns: readonly CsvFieldKind[] = [
  'NhsNumber',
  'GivenName',
  'FamilyName',
  'DateOfBirth',
  'Mobile',
  'Email',
  'AddressLine1',
  'AddressLine2',
  'PostTown',
  'Postcode',
];

/**
 * A small patient CSV to start from (the console's "Download an example file"): field names on the
 * first line, then made-up patients: NHS numbers of the 999 test range (never issued), mobiles of
 * Ofcom's drama range (07700 900xxx), example.com addresses, and a date of birth in each accepted style.
 * Commas inside a value are quoted, as spreadsheets write them.
 */
export function examplePatientCsv(): string {
  const rows = [
    exampleCsvColumns.map((k) => csvFieldLabels[k]),
    [
      '999 001 0005',
      'Ada',
      'Lovelace',
      '10-12-1985',
      '07700 900001',
      'ada@example.com',
      'Flat 2, 1 Canal Street',
      '',
      'Manchester',
      'M1 3HE',
    ],
    ['9990020000', 'Alan', 'Turing', '1972-06-23', '07700900002', '', '3 Station Road', '', 'Wilmslow', 'SK9 1BU'],
    ['9990030006', 'Mary', 'Seacole', '5/3/1990', '+44 7700 900003', 'mary@example.com', '', '', '', ''],
  ];
  return `${Papa.unparse(rows, { newline: '\r\n' })}\r\n`;
}
