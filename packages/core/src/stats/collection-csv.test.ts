import { describe, expect, it } from 'bun:test';
import type { CollectionRecord } from '../order/order.ts';
import { collectionRecordsCsv } from './collection-csv.ts';

const record = (extra: Partial<CollectionRecord> = {}): CollectionRecord => ({
  id: '01a218c3-d32f-70cd-86c2-4cd47f70ba53',
  reference: '000042',
  patientId: '01a218c3-d23b-70c3-94bc-c120408b8c25',
  patientName: 'Sam Patient',
  collected: Date.parse('2026-10-24T23:30:00Z'),
  amountPaid: 1190,
  autoExempt: false,
  exemptionCode: null,
  pinRevealed: true,
  prescriptionCharge: 990,
  retailCharge: 200,
  ...extra,
});

describe('collectionRecordsCsv', () => {
  it('writes a header and one line per record, in London time and pounds with 2 decimals, text quoted', () => {
    expect(collectionRecordsCsv([record(), record({ reference: '000043', exemptionCode: 'F', amountPaid: 0 })])).toBe(
      '"Reference","Patient","Collected","Amount paid","Prescription charge","Retail charge","Exemption","Auto exempt","PIN revealed"\r\n' +
        '000042,"Sam Patient","25-10-2026 00:30:00","£11.90","£9.90","£2.00",,"No","Yes"\r\n' +
        '000043,"Sam Patient","25-10-2026 00:30:00","£0.00","£9.90","£2.00","F","No","Yes"\r\n',
    );
  });
  it('keeps a formula-like name as text, at its start and after a separator', () => {
    const csv = collectionRecordsCsv([record({ patientName: '=HYPERLINK("x"), Bob;=1+1' })]);
    expect(csv.split('\r\n')[1]).toBe(
      '000042,"\'=HYPERLINK(""x""), Bob;\'=1+1","25-10-2026 00:30:00","£11.90","£9.90","£2.00",,"No","Yes"',
    );
  });
  it('is the header alone with no records', () => {
    expect(collectionRecordsCsv([]).split('\r\n')).toHaveLength(2);
  });
});
