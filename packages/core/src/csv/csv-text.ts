import Papa from 'papaparse';

/** A cell of a CSV we write: text, a number, a yes/no, or nothing. */
export type CsvCell = string | number | boolean | null | undefined;

/** A number written as text: kept as written, bare and never defused, so a sheet can sum it. */
const plainNumber = /^-?\d+(\.\d+)?$/;

/**
 * A text cell a spreadsheet cannot run as a formula (OWASP "CSV injection"): a `'` before an `=`, `+`,
 * `-`, `@`, tab or carriage return that starts the cell or follows a separator a spreadsheet may split
 * on (`,` `;` tab, a line break): in a locale whose separator is `;`, Excel splits `CSV;=1+1` into two
 * cells and would run the second. Patients' names, barcodes and messages come from outside.
 */
export function defuseCell(text: string): string {
  if (plainNumber.test(text)) return text;
  return text.replace(/(^|[,;\t\r\n])(?=[=+\-@\t\r])/g, "$1'");
}

/**
 * Every CSV the product writes (reports, evidence packs, exports), through papaparse: a header line and
 * the rows, CRLF line ends (RFC 4180), every text cell quoted and defused, numbers and yes/no bare.
 * Quoting every text cell keeps it one cell whatever separator the spreadsheet splits on.
 */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const cells = [header, ...rows].map((row) =>
    row.map((cell) => (cell === null || cell === undefined ? '' : typeof cell === 'string' ? defuseCell(cell) : cell)),
  );
  const text = Papa.unparse(cells, {
    newline: '\r\n',
    escapeFormulae: false,
    // A number written as text ("-3", "0012") stays as written and bare, as a number is.
    quotes: (value: unknown) => typeof value === 'string' && value !== '' && !plainNumber.test(value),
  });
  return `${text}\r\n`;
}
