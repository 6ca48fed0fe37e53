/**
 * The names of the fields that differ between two versions of an entity, for the audit log: the
 * names only, never the values (an email or a mobile number is personal data).
 */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T, fields: (keyof T)[]): string[] {
  return fields.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map(String);
}
