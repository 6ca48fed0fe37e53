export * from './csv-file.ts';
export * from './example.ts';
export * from './mapping.ts';
export * from './mapping-guess.ts';
export * from './order-csv.ts';
export * from './patient-csv.ts';
export * from './patient-row.ts';
export * from './text-encoding.ts';
