import { AppError } from '@medlocker/core';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The dotted paths whose values differ between two settings objects ('orderCollection.defaultCollectionWindow'):
 * what the audit log records, never the values themselves.
 */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => changedPaths(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}

/**
 * `defaults` with each stored value of the same kind put over it, field by field: a value of the wrong
 * type (an old or hand-edited row) falls back to the default rather than breaking the page.
 */
export function overDefaults<T>(defaults: T, stored: unknown): T {
  if (isPlainObject(defaults)) {
    const out: Record<string, unknown> = {};
    const from = isPlainObject(stored) ? stored : {};
    for (const [k, v] of Object.entries(defaults)) out[k] = overDefaults(v, from[k]);
    return out as T;
  }
  if (stored === undefined) return defaults;
  if (typeof stored === typeof defaults) return stored as T;
  // string | null fields: either may be stored whichever the default is.
  if ((defaults === null && typeof stored === 'string') || (stored === null && typeof defaults === 'string'))
    return stored as T;
  return defaults;
}

/** 409: the SPEC §4 rule that archived businesses cannot have settings edited. */
export function refuseArchived(business: { archived: boolean }): void {
  if (business.archived) {
    throw new AppError(
      'CONFLICT',
      'This business is archived: its settings cannot be changed. Unarchive the business first.',
    );
  }
}
