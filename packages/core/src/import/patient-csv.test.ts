import { afterEach, describe, expect, it } from 'bun:test';
import { CsvFileError, csvFileMessages } from './csv-file.ts';
import { exampleCsvColumns, examplePatientCsv } from './example.ts';
import { checkMapping, csvFieldLabels, mappingMessages, planOf } from './mapping.ts';
import {
  bodySizedParts,
  IdSet,
  type ImportBatch,
  importPatientCsv,
  inspectCsv,
  patientRowCount,
} from './patient-csv.ts';
import { checkPatientRow, parseDateOfBirth } from './patient-row.ts';

const TODAY = '2026-11-02';
const MAPPING = ['NhsNumber', 'GivenName', 'FamilyName', 'DateOfBirth', 'Mobile', 'Email', 'Postcode'] as const;
const HEADER = 'NHS number,First name,Surname,DOB,Mobile,Email,Postcode';

async function runImport(
  csv: string | Blob,
  firstLine: 'data' | 'fields' = 'fields',
  mapping: readonly (string | null)[] = MAPPING,
) {
  const batches: ImportBatch[] = [];
  const summary = await importPatientCsv(csv, {
    firstLine,
    mapping: mapping as never,
    today: TODAY,
    onBatch: (b) => {
      batches.push(b);
    },
  });
  return { summary, patients: batches.flatMap((b) => b.patients), rows: batches.flatMap((b) => b.rows), batches };
}

describe('inspecting a patient CSV', () => {
  it('reads a spreadsheet export with a byte order mark and CRLF line ends', async () => {
    const csv = `\uFEFF${HEADER}\r\n9434765919,Jane,Doe,01-02-1980,07700 900123,jane@example.com,sw1a 1aa\r\n`;
    const inspection = await inspectCsv(csv);
    expect(inspection.firstRow[0]).toBe('NHS number');
    expect(inspection.fieldCount).toBe(7);
    expect(inspection.nonEmptyRows).toBe(2);
    expect(inspection.sample).toHaveLength(1);
  });

  it('keeps quoted commas and newlines inside one field', async () => {
    const csv = `${HEADER}\n9434765919,"Mary, Ann","O'Brien\nSmith",01-02-1980,07700900123,,\n`;
    const { patients } = await runImport(csv);
    expect(patients[0]?.name).toEqual({ given: 'Mary, Ann', family: "O'Brien\nSmith" });
  });

  it('refuses a file with no data', async () => {
    for (const empty of ['', '\n\n', ',,,\r\n,,,\r\n', '\uFEFF']) {
      const error = await inspectCsv(empty).catch((e) => e);
      expect(error).toBeInstanceOf(CsvFileError);
      expect(error.message).toBe(csvFileMessages.noData);
    }
  });

  it('refuses a file holding only its field names once its first line is said to be field names', async () => {
    for (const headerOnly of [`${HEADER}\r\n`, `\uFEFF${HEADER}\r\n,,,,,,\r\n,,,,,,\r\n`]) {
      const inspection = await inspectCsv(headerOnly);
      expect(patientRowCount(inspection, 'data')).toBe(1);
      const error = (() => {
        try {
          return patientRowCount(inspection, 'fields');
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(CsvFileError);
      expect((error as CsvFileError).message).toBe('The selected file contains no data.');
      // The pipeline itself refuses it too, rather than reporting an import of 0 patients.
      await expect(runImport(headerOnly)).rejects.toThrow('The selected file contains no data.');
    }
    expect(patientRowCount(await inspectCsv(`${HEADER}\n9434765919,Jane,Doe,,07700900123,,`), 'fields')).toBe(1);
  });

  it('refuses rows with too few or too many fields, naming each row', async () => {
    const csv = `${HEADER}\n9434765919,Jane,Doe,01-02-1980,07700900123,,\n1,2,3\n1,2,3,4,5,6,7,8\n`;
    const error = (await inspectCsv(csv).catch((e) => e)) as CsvFileError;
    expect(error.message).toBe('Errors encountered during parsing.');
    expect(error.problems).toEqual([
      'Row 3: Too few fields: expected 7 fields but parsed 3',
      'Row 4: Too many fields: expected 7 fields but parsed 8',
    ]);
  });

  it('samples rows from across the whole file, not only the top', async () => {
    const lines = [HEADER, ...Array.from({ length: 5000 }, (_, i) => `${i},a,b,,07700900123,,`)];
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const { sample } = await inspectCsv(lines.join('\n'), { sampleSize: 20, random });
    expect(sample).toHaveLength(20);
    expect(sample.some((row) => Number(row[0]) > 2500)).toBe(true);
  });

  it('reads a File in the same way as a string', async () => {
    const file = new File([`${HEADER}\n9434765919,Jane,Doe,,07700900123,,\n`], 'patients.csv', { type: 'text/csv' });
    const { patients } = await runImport(file);
    expect(patients).toHaveLength(1);
  });
});

describe('reading a File as a browser does', () => {
  /**
   * A browser's FileReader: it decodes each slice it is given on its own, as UTF-8. Papaparse read a
   * File in 1 MB slices through it, so a character split by a slice's end came out as U+FFFD; Bun has
   * no FileReader, so without this stand-in the test would take the cli's path instead.
   */
  class SliceDecodingFileReader {
    onload: ((event: { target: { result: string } }) => void) | null = null;
    onerror: (() => void) | null = null;
    error: unknown = null;
    readAsText(blob: Blob) {
      void blob.arrayBuffer().then((bytes) => this.onload?.({ target: { result: new TextDecoder().decode(bytes) } }));
    }
  }
  const global = globalThis as { FileReader?: unknown };
  const hadFileReader = 'FileReader' in global;
  const ownFileReader = global.FileReader;
  afterEach(() => {
    if (hadFileReader) global.FileReader = ownFileReader;
    else delete global.FileReader;
  });

  /** Over 1 MiB of patients with accented names, shifted so that one ë's two bytes sit either side of byte 2^20. */
  function accentedFile(): { file: File; names: string[] } {
    const names = Array.from({ length: 40_000 }, (_, i) => `Zoë Brontë-Lefèvre ${i} 😀`);
    const textOf = (pad: string) =>
      `\uFEFFID,Name,Mobile,Note\r\n${names.map((name, i) => `P${i},${name},07700900123,${i === 0 ? pad : ''}`).join('\r\n')}\r\n`;
    for (let pad = ''; pad.length < 64; pad += 'x') {
      const bytes = new TextEncoder().encode(textOf(pad));
      // 0b10xxxxxx is a UTF-8 continuation byte: the character began before the boundary.
      if (bytes.length > 2 ** 20 && ((bytes[2 ** 20] as number) & 0xc0) === 0x80) {
        return { file: new File([bytes], 'accented.csv', { type: 'text/csv' }), names };
      }
    }
    throw new Error('no padding puts a character across the boundary');
  }

  it('keeps every accented name whole where a character straddles a 1 MiB read', async () => {
    global.FileReader = SliceDecodingFileReader;
    const { file, names } = accentedFile();
    const { summary, patients } = await runImport(file, 'fields', ['ID', 'FullName', 'Mobile', null]);
    expect(summary.errors).toEqual([]);
    expect(patients.filter((p) => p.name.full?.includes('\uFFFD')).map((p) => p.displayId)).toEqual([]);
    expect(patients.map((p) => p.name.full)).toEqual(names);
    const inspection = await inspectCsv(file, { sampleSize: 5 });
    expect(inspection.firstRow).toEqual(['ID', 'Name', 'Mobile', 'Note']);
    expect(inspection.nonEmptyRows).toBe(names.length + 1);
  });
});

describe('mapping CSV columns', () => {
  it('accepts one ID, a name in one style and a mobile', () => {
    expect(checkMapping(['ID', 'FullName', 'Mobile'])).toEqual([]);
    expect(checkMapping(['NhsNumber', 'GivenName', 'FamilyName', 'Mobile', null, 'Email'])).toEqual([]);
  });

  it('refuses no ID and two IDs', () => {
    expect(checkMapping(['FullName', 'Mobile'])).toContain(mappingMessages.id);
    expect(checkMapping(['ID', 'NhsNumber', 'FullName', 'Mobile'])).toContain(mappingMessages.id);
  });

  it('refuses both name styles, half a name and no name', () => {
    expect(checkMapping(['ID', 'FullName', 'GivenName', 'Mobile'])).toContain(mappingMessages.nameStyles);
    expect(checkMapping(['ID', 'GivenName', 'Mobile'])).toContain(mappingMessages.name);
    expect(checkMapping(['ID', 'Mobile'])).toContain(mappingMessages.name);
  });

  it('refuses a missing mobile and a field mapped twice', () => {
    expect(checkMapping(['ID', 'FullName'])).toContain(mappingMessages.mobile);
    expect(checkMapping(['ID', 'FullName', 'Mobile', 'Email', 'Email'])).toContain(
      'Email is mapped to more than one column',
    );
  });

  it('will not import with a refused mapping', async () => {
    await expect(runImport(`a,b\n1,2`, 'data', ['ID', 'FullName'])).rejects.toThrow(mappingMessages.mobile);
  });
});

describe('checking each patient row', () => {
  const plan = planOf(MAPPING as never);
  const row = (over: Partial<Record<(typeof MAPPING)[number], string>>) => {
    const base = {
      NhsNumber: '9434765919',
      GivenName: 'Jane',
      FamilyName: 'Doe',
      DateOfBirth: '',
      Mobile: '07700900123',
      Email: '',
      Postcode: '',
    };
    const merged = { ...base, ...over };
    return MAPPING.map((k) => merged[k]);
  };

  it('reports each problem of a row in the SPEC words', () => {
    const outcome = checkPatientRow(
      row({
        GivenName: '',
        FamilyName: '',
        NhsNumber: '1234567890',
        DateOfBirth: '31-02-1990',
        Email: 'jane@',
        Mobile: '0161 496 0000',
      }),
      plan,
      TODAY,
    );
    expect(outcome).toEqual({
      ok: false,
      errors: [
        'missing name',
        'invalid NHS number: 1234567890',
        'invalid date of birth: 31-02-1990',
        'email address not valid',
        'invalid mobile number: 0161 496 0000',
      ],
    });
  });

  it('asks for an ID and a mobile when they are blank', () => {
    expect(checkPatientRow(row({ NhsNumber: ' ', Mobile: '' }), plan, TODAY)).toEqual({
      ok: false,
      errors: ['missing ID field', 'missing mobile number'],
    });
    const idPlan = planOf(['ID', 'FullName', 'Mobile']);
    expect(checkPatientRow(['', 'Jane Doe', '07700900123'], idPlan, TODAY)).toEqual({
      ok: false,
      errors: ['missing ID field'],
    });
  });

  it('normalises what spreadsheets do to numbers and dates', () => {
    const outcome = checkPatientRow(
      row({ NhsNumber: '943 476 5919', Mobile: '7700900123', DateOfBirth: '1/2/1980', Postcode: ' sw1a  1aa ' }),
      plan,
      TODAY,
    );
    expect(outcome).toEqual({
      ok: true,
      patient: {
        displayId: '9434765919',
        name: { given: 'Jane', family: 'Doe' },
        mobileNumber: '+447700900123',
        dateOfBirth: '1980-02-01',
        address: { postcode: 'SW1A 1AA' },
      },
    });
  });

  it('gives back the leading zero a spreadsheet dropped from a CHI number', () => {
    // 010 101 0028 is a valid CHI number (born 01-01-01); Excel shows it as 101010028.
    const outcome = checkPatientRow(row({ NhsNumber: '101010028' }), plan, TODAY);
    expect(outcome.ok && outcome.patient.displayId).toBe('0101010028');
  });

  it('refuses an NHS number grouped any way other than 3-3-4 with one kind of separator', () => {
    for (const nhs of ['94347 65919', '943 476-5919', '9 4 3 4 7 6 5 9 1 9']) {
      const outcome = checkPatientRow(row({ NhsNumber: nhs }), plan, TODAY);
      expect(outcome.ok).toBe(false);
    }
    const hyphens = checkPatientRow(row({ NhsNumber: '943-476-5919' }), plan, TODAY);
    expect(hyphens.ok && hyphens.patient.displayId).toBe('9434765919');
  });

  it('keeps a plain unique ID exactly as written, leading zeros included', () => {
    const idPlan = planOf(['ID', 'FullName', 'Mobile']);
    const outcome = checkPatientRow(['007', 'James Bond', '+44 7700 900007'], idPlan, TODAY);
    expect(outcome.ok && outcome.patient).toEqual({
      displayId: '007',
      name: { full: 'James Bond' },
      mobileNumber: '+447700900007',
    });
  });
});

describe('dates of birth in an import', () => {
  it('accepts DD-MM-YYYY, YYYY-MM-DD and D/M/YYYY and stores YYYY-MM-DD', () => {
    expect(parseDateOfBirth('01-02-1980', TODAY)).toBe('1980-02-01');
    expect(parseDateOfBirth('1980-02-01', TODAY)).toBe('1980-02-01');
    expect(parseDateOfBirth('1/2/1980', TODAY)).toBe('1980-02-01');
    expect(parseDateOfBirth('01/02/1980', TODAY)).toBe('1980-02-01');
    expect(parseDateOfBirth('29/02/2000', TODAY)).toBe('2000-02-29');
  });

  it('refuses loose, impossible and future dates', () => {
    for (const bad of [
      '1-2-1980',
      '1980-2-1',
      '01.02.1980',
      '29/02/2001',
      '32/01/1980',
      '01/13/1980',
      '1/2/80',
      '2027-01-01',
      '44123',
    ]) {
      expect(parseDateOfBirth(bad, TODAY)).toBeUndefined();
    }
  });
});

describe('importing a patient CSV', () => {
  it('imports good rows, reports bad ones with their spreadsheet row numbers and skips empty rows', async () => {
    const csv = [
      HEADER,
      '9434765919,Jane,Doe,01-02-1980,07700 900123,jane@example.com,SW1A 1AA',
      ',,,,,,',
      '',
      '1234567890,John,Smith,,07700900124,,',
      '9990000018,Ann,Lee,1975-06-30,+447700900125,,',
    ].join('\r\n');
    const { summary, patients, rows } = await runImport(csv);
    expect(patients.map((p) => p.displayId)).toEqual(['9434765919', '9990000018']);
    expect(rows).toEqual([2, 6]);
    expect(summary).toEqual({
      rowsDone: 3,
      imported: 2,
      errors: [{ row: 5, errors: ['invalid NHS number: 1234567890'] }],
      cancelled: false,
    });
  });

  it('treats the first line as a patient when told it is data', async () => {
    const { patients } = await runImport('9434765919,Jane,Doe,,07700900123,,\n', 'data');
    expect(patients).toHaveLength(1);
  });

  it('hands rows over 1024 at a time', async () => {
    const lines = [HEADER, ...Array.from({ length: 2500 }, (_, i) => `X${i},Jane,Doe,,07700900123,,`)];
    const { batches, summary } = await runImport(lines.join('\n'), 'fields', [
      'ID',
      'GivenName',
      'FamilyName',
      null,
      'Mobile',
      null,
      null,
    ]);
    expect(batches.map((b) => b.patients.length)).toEqual([1024, 1024, 452]);
    expect(batches.map((b) => b.rowsDone)).toEqual([1024, 2048, 2500]);
    expect(summary.imported).toBe(2500);
  });

  it('refuses an ID an earlier good row of the file had, however many batches later, keeping the first', async () => {
    const mapping = ['ID', 'GivenName', 'FamilyName', null, 'Mobile', null, null];
    const lines = [HEADER, ...Array.from({ length: 2500 }, (_, i) => `X${i},Jane,Doe,,07700900123,,`)];
    lines[1800] = 'X5,Late,Repeat,,07700900999,,'; // row 1801: X5 was row 7, in the first batch
    lines[2000] = ' X6 ,Padded,Repeat,,07700900999,,'; // the same id once trimmed
    lines[31] = 'X30,No,Mobile,,,,'; // row 32: a bad row does not take its id…
    lines[2100] = 'X30,Good,Later,,07700900998,,'; // …so this one is imported
    lines[2200] = 'x5,Other,Case,,07700900997,,'; // ids are kept as written: another patient
    const { summary, patients, rows } = await runImport(lines.join('\n'), 'fields', mapping);
    expect(summary.errors).toEqual([
      { row: 32, errors: ['missing mobile number'] },
      { row: 1801, errors: ['duplicate ID field: X5'] },
      { row: 2001, errors: ['duplicate ID field: X6'] },
    ]);
    expect(summary.imported).toBe(2497);
    expect(patients.filter((p) => p.displayId === 'X5').map((p) => p.name)).toEqual([{ given: 'Jane', family: 'Doe' }]);
    expect(rows[patients.findIndex((p) => p.displayId === 'X30')]).toBe(2101);
    expect(patients.some((p) => p.displayId === 'x5')).toBe(true);
  });

  it('sees an NHS number written two ways as one ID', async () => {
    const csv = [HEADER, '9434765919,Jane,Doe,,07700900123,,', '943 476 5919,Jane,Again,,07700900124,,'].join('\n');
    const { summary, patients } = await runImport(csv);
    expect(patients).toHaveLength(1);
    expect(summary.errors).toEqual([{ row: 3, errors: ['duplicate ID field: 9434765919'] }]);
  });

  it('stops when cancelled and says so, sending nothing more', async () => {
    const lines = [HEADER, ...Array.from({ length: 5000 }, (_, i) => `X${i},Jane,Doe,,07700900123,,`)];
    for (const source of [lines.join('\n'), new File([lines.join('\n')], 'patients.csv')]) {
      await expectCancelledAfterTwoBatches(source);
    }
  });

  async function expectCancelledAfterTwoBatches(source: string | File) {
    const controller = new AbortController();
    let sent = 0;
    const summary = await importPatientCsv(source, {
      firstLine: 'fields',
      mapping: ['ID', 'GivenName', 'FamilyName', null, 'Mobile', null, null],
      today: TODAY,
      signal: controller.signal,
      onBatch: async (b) => {
        sent += b.patients.length;
        if (sent >= 2048) controller.abort();
      },
    });
    expect(summary.cancelled).toBe(true);
    expect(sent).toBe(2048);
    expect(summary.imported).toBe(2048);
  }
});

describe('sizing import requests', () => {
  it('keeps an ordinary batch whole and halves a batch of long rows until each part fits', () => {
    const ordinary = Array.from({ length: 1024 }, (_, i) => ({ displayId: String(i), name: { full: 'Ada Lovelace' } }));
    expect(bodySizedParts(ordinary)).toEqual([[0, 1024]]);
    // 1024 rows of ~2 KB (each é is 2 bytes in UTF-8): halves are still over 900 KB, so four parts.
    const long = Array.from({ length: 1024 }, () => ({ address: { line1: 'é'.repeat(1000) } }));
    const parts = bodySizedParts(long);
    expect(parts).toEqual([
      [0, 256],
      [256, 512],
      [512, 768],
      [768, 1024],
    ]);
    // A single row is never split, whatever its size; nothing gives no parts.
    expect(bodySizedParts([{ x: 'y'.repeat(2000) }], 100)).toEqual([[0, 1]]);
    expect(bodySizedParts([])).toEqual([]);
  });
});

describe('the example file', () => {
  it('imports as it is: its field names on the first line, every patient good', async () => {
    const csv = examplePatientCsv();
    const inspection = await inspectCsv(csv);
    expect(inspection.firstRow).toEqual(exampleCsvColumns.map((k) => csvFieldLabels[k]));
    const { summary, patients } = await runImport(csv, 'fields', exampleCsvColumns);
    expect(summary.errors).toEqual([]);
    expect(patients.map((p) => [p.displayId, p.dateOfBirth, p.mobileNumber])).toEqual([
      ['9990010005', '1985-12-10', '+447700900001'],
      ['9990020000', '1972-06-23', '+447700900002'],
      ['9990030006', '1990-03-05', '+447700900003'],
    ]);
    expect(patients[0]?.address?.line1).toBe('Flat 2, 1 Canal Street');
  });
});

describe('IdSet (the whole-file duplicate check)', () => {
  it('answers each id new once, however the table grows, and tells apart ids that share a start or a hash', () => {
    const ids = new IdSet(1);
    const all = Array.from({ length: 20_000 }, (_, i) => `X${i}`);
    for (const id of all) expect(ids.add(id)).toBe(true);
    for (const id of all) expect(ids.add(id)).toBe(false);
    // Prefixes, the empty id, case and characters outside Latin-1 are ids of their own.
    for (const id of ['X', '', 'x1', 'X1 ', 'Zoë', '🙂', 'X10000x']) expect(ids.add(id)).toBe(true);
    for (const id of ['X', '', 'Zoë', '🙂']) expect(ids.add(id)).toBe(false);
    // 'costarring' and 'liquid' share their 32-bit FNV-1a hash: the kept code units decide.
    const clash = new IdSet();
    expect(clash.add('costarring')).toBe(true);
    expect(clash.add('liquid')).toBe(true);
    expect(clash.add('liquid')).toBe(false);
    expect(clash.add('costarring')).toBe(false);
  });
});
