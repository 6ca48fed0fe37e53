import { UsageError } from '../context.ts';

/** `key=value` from the command line; the key may be dotted ('orderCollection.defaultCollectionWindow'). */
export function parseAssignment(text: string): { path: string[]; raw: string } {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`Expected key=value, not '${text}'`);
  return { path: text.slice(0, at).trim().split('.'), raw: text.slice(at + 1) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Settings as `key = value` lines, nested keys dotted, in the settings' own order. */
export function flatten(settings: unknown, prefix = ''): [string, unknown][] {
  if (!isObject(settings)) return [[prefix, settings]];
  return Object.entries(settings).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

/**
 * The value typed as the current one is: 'true'/'false' for a switch, a whole number for a number,
 * text (or 'null' to clear) for text. The server checks the rules; this only gets the type right.
 */
export function typedValue(key: string, current: unknown, raw: string): unknown {
  const value = raw.trim();
  if (typeof current === 'boolean') {
    if (value === 'true' || value === 'false') return value === 'true';
    throw new UsageError(`${key} is true or false, not '${raw}'`);
  }
  if (typeof current === 'number') {
    if (/^-?\d+$/.test(value)) return Number(value);
    throw new UsageError(`${key} is a whole number, not '${raw}'`);
  }
  if (current === null || typeof current === 'string') return value === 'null' || value === '' ? null : raw;
  throw new UsageError(`${key} is a group of settings: set its parts (${key}.…)`);
}

/**
 * Applies `key=value` assignments to a copy of `settings`, and returns the changed top-level keys
 * with their whole new values (the API replaces top-level keys).
 */
export function applyAssignments(settings: Record<string, unknown>, assignments: string[]): Record<string, unknown> {
  const next = structuredClone(settings);
  const touched = new Set<string>();
  for (const text of assignments) {
    const { path, raw } = parseAssignment(text);
    const key = path.join('.');
    let parent: Record<string, unknown> = next;
    for (const part of path.slice(0, -1)) {
      const child = parent[part];
      if (!isObject(child)) throw new UsageError(`Unknown setting '${key}'`);
      parent = child;
    }
    const leaf = path[path.length - 1] as string;
    if (!Object.hasOwn(parent, leaf)) throw new UsageError(`Unknown setting '${key}'`);
    parent[leaf] = typedValue(key, parent[leaf], raw);
    touched.add(path[0] as string);
  }
  return Object.fromEntries([...touched].map((k) => [k, next[k]]));
}
