import { describe, expect, it } from 'bun:test';
import Papa from 'papaparse';
import { csvText, defuseCell } from './csv-text.ts';

describe('the one CSV writer', () => {
  it('defuses a formula at the start of a cell and after any separator a spreadsheet may split on', () => {
    expect(defuseCell('=1+1')).toBe("'=1+1");
    expect(defuseCell('CSV;=1+1-1796461761303')).toBe("CSV;'=1+1-1796461761303");
    expect(defuseCell('a,@SUM(A1)')).toBe("a,'@SUM(A1)");
    expect(defuseCell('a\t+1')).toBe("a\t'+1");
    expect(defuseCell('-3')).toBe('-3');
    expect(defuseCell('Smith-Jones')).toBe('Smith-Jones');
  });

  it('quotes every text cell, leaves numbers and yes/no bare, and reads back as written', () => {
    const text = csvText(
      ['Barcode', 'Count', 'Paid', 'Note'],
      [
        ['CSV;=1+1-1796461761303', 3, true, null],
        ['Plain', '-2', false, 'He said "hi"'],
      ],
    );
    expect(text).toBe(
      '"Barcode","Count","Paid","Note"\r\n"CSV;\'=1+1-1796461761303",3,true,\r\n"Plain",-2,false,"He said ""hi"""\r\n',
    );
    expect(Papa.parse<string[]>(text.trim(), { newline: '\r\n' }).data[1]).toEqual([
      "CSV;'=1+1-1796461761303",
      '3',
      'true',
      '',
    ]);
    // Split on ';' or a tab however a spreadsheet's locale does: no piece starts a formula.
    expect(text.split(/[;,\t\r\n]/).filter((piece) => /^[=+@]/.test(piece.replace(/^"/, '')))).toEqual([]);
  });
});
