/**
 * bench/import (parse): raw papaparse over a generated 100,000-row file against core's import pass
 * (parse + per-row SPEC checks in 1024-row batches), in the same process and run, as a ratio.
 * Target: the import pass at least 40% of raw papaparse speed (the fastest of RUNS interleaved runs
 * of each; medians beside). The mapping screen's whole-file
 * inspection (a second parse, once per file) is reported beside it.
 * Run: `bun bench/import/parse.bench.ts` (ROWS, RUNS to change the size).
 */
import Papa from 'papaparse';
import { importPatientCsv, inspectCsv } from '../../packages/core/src/import/index.ts';
import { generatePatientCsv } from './generate.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 11);
const csv = generatePatientCsv(ROWS);
const header = Papa.parse<string[]>(csv.slice(0, csv.indexOf('\n'))).data[0] ?? [];
const kinds: Record<string, string> = {
  'NHS Number': 'NhsNumber',
  'Given Name': 'GivenName',
  'Family Name': 'FamilyName',
  'Date of Birth': 'DateOfBirth',
  Mobile: 'Mobile',
  Email: 'Email',
  'Address 1': 'AddressLine1',
  'Address 2': 'AddressLine2',
  'Address 3': 'AddressLine3',
  Town: 'PostTown',
  Postcode: 'Postcode',
};
const mapping = header.map((h) => (kinds[h] ?? null) as never);

/** Raw papaparse: every row parsed, nothing checked. */
function raw(): number {
  return Papa.parse<string[]>(csv).data.length;
}

async function importPass(): Promise<number> {
  let imported = 0;
  await importPatientCsv(csv, {
    firstLine: 'fields',
    mapping,
    today: '2026-11-21',
    onBatch: (b) => {
      imported += b.patients.length;
    },
  });
  return imported;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const timed = async (f: () => unknown) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const rawMs: number[] = [];
const importMs: number[] = [];
const inspectMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  rawMs.push(await timed(raw));
  importMs.push(await timed(importPass));
  inspectMs.push(await timed(() => inspectCsv(csv)));
}
const imported = await importPass();
if (imported !== ROWS) throw new Error(`expected ${ROWS} patients, imported ${imported}`);
// Other work on a shared machine only ever adds time, so the fastest of the interleaved runs is the
// steadiest figure for each; the medians are reported beside it.
const best = (xs: number[]) => Math.min(...xs);
const ratio = best(rawMs) / best(importMs);
console.log(
  JSON.stringify(
    {
      rows: ROWS,
      megabytes: +(csv.length / 1e6).toFixed(1),
      rawPapaparseMs: { best: Math.round(best(rawMs)), median: Math.round(median(rawMs)) },
      importPassMs: { best: Math.round(best(importMs)), median: Math.round(median(importMs)) },
      inspectPassMs: { best: Math.round(best(inspectMs)), median: Math.round(median(inspectMs)) },
      importSpeedVsRaw: `${(ratio * 100).toFixed(0)}%`,
      importSpeedVsRawMedians: `${((median(rawMs) / median(importMs)) * 100).toFixed(0)}%`,
      loadAverage: (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' '),
      target: '>= 40%',
      pass: ratio >= 0.4,
    },
    null,
    2,
  ),
);
