import { basename, dirname, extname, join } from 'node:path';
import { type CsvFieldKind, type CsvMapping, csvFieldKinds, csvFieldLabels } from '@medlocker/core';
import { UsageError } from '../context.ts';

/** `patients.csv` → `patients.errors.csv` in the same folder. */
export function defaultErrorsPath(file: string): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.errors.csv`);
}

const kindByName = new Map<string, CsvFieldKind>();
for (const kind of csvFieldKinds) {
  kindByName.set(kind.toLowerCase(), kind);
  kindByName.set(csvFieldLabels[kind].toLowerCase(), kind);
}

/** A field kind by its name (`NhsNumber`) or its label (`NHS Number`), whatever the case. */
export function kindOf(name: string): CsvFieldKind {
  const kind = kindByName.get(name.trim().toLowerCase());
  if (!kind) {
    throw new UsageError(`Unknown field '${name.trim()}'. Fields: ${csvFieldKinds.join(', ')}`);
  }
  return kind;
}

/** What a saved mapping file holds: the first-line answer and column → field pairs. */
export type SavedMapping = { firstLine?: 'data' | 'fields'; columns: Record<string, string> };

/** `0=NhsNumber,Given Name=GivenName`: column index or header name, then field name or label. */
export function parseMapFlag(flag: string): Record<string, string> {
  const columns: Record<string, string> = {};
  for (const pair of flag.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw new UsageError(`--map takes column=field pairs, not '${pair.trim()}'`);
    columns[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return columns;
}

/** Reads a mapping file: `{ "firstLine": "fields", "columns": { "NHS Number": "NhsNumber" } }` or `["NhsNumber", null]`. */
export function parseMappingFile(text: string, path: string): SavedMapping {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not JSON`);
  }
  if (Array.isArray(parsed)) {
    return {
      columns: Object.fromEntries(
        parsed.flatMap((kind, i) => (typeof kind === 'string' && kind ? [[String(i), kind]] : [])),
      ),
    };
  }
  const object = parsed as Partial<SavedMapping> | null;
  if (!object || typeof object.columns !== 'object' || object.columns === null) {
    throw new UsageError(`${path} needs a "columns" object of column → field`);
  }
  if (object.firstLine !== undefined && object.firstLine !== 'data' && object.firstLine !== 'fields') {
    throw new UsageError(`${path}: "firstLine" is "data" or "fields"`);
  }
  return object as SavedMapping;
}

/**
 * Column → field pairs as the mapping core's pipeline takes (one entry per column, null = ignored).
 * A column is its 0-based index, or its header when the first line holds field names.
 */
export function resolveMapping(
  columns: Record<string, string>,
  fieldCount: number,
  header: readonly string[] | undefined,
): CsvMapping {
  const mapping: (CsvFieldKind | null)[] = new Array(fieldCount).fill(null);
  for (const [column, field] of Object.entries(columns)) {
    const kind = field.trim() === '' || field.trim() === '-' ? null : kindOf(field);
    let index = /^\d+$/.test(column) ? Number(column) : -1;
    if (index < 0) {
      if (!header) throw new UsageError(`Column '${column}' is a name: give --first-line fields, or use its index`);
      index = header.findIndex((h) => h.trim().toLowerCase() === column.trim().toLowerCase());
      if (index < 0) throw new UsageError(`No column named '${column}'. Columns: ${header.join(', ')}`);
    }
    if (index >= fieldCount) throw new UsageError(`Column ${index} is past the file's ${fieldCount} columns`);
    mapping[index] = kind;
  }
  return mapping;
}
