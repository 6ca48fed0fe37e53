/*
 * A database row's snake_case columns as the camelCase fields the rest of the api reads: the mapping
 * most repositories write out field by field, for the rows whose fields are their columns' names.
 */

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** The row's columns under their camelCase names, with the same values. */
export type CamelRow<R> = { [K in keyof R as K extends string ? Camel<K> : K]: R[K] };

export const camelKey = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A row with its columns renamed to camelCase (`idle_expires_at` → `idleExpiresAt`), values untouched. */
export function camelRow<R extends object>(row: R): CamelRow<R> {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [camelKey(column), value])) as CamelRow<R>;
}
