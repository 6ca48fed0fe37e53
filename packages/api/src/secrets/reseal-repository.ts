import type { Database } from '@medlocker/db';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SealedColumn } from './sealed-columns.ts';

type Db = Kysely<Database>;

/** A sealed value to look at: its row, what its context names, and the value. */
export type SealedValue = { id: string; ref: string; sealed: string };

/** The sealed value's expression: the column, or a field of a jsonb column. */
const sealedValueOf = (c: SealedColumn): RawBuilder<string | null> =>
  c.jsonField ? sql`${sql.ref(c.column)}->>${sql.lit(c.jsonField)}` : sql`${sql.ref(c.column)}`;

/**
 * The next `limit` values of a column after row `after`, in the order of the rows' keys, that are not
 * sealed under `currentPrefix` (`v2.<key id>.`): the ones the re-seal job has still to do.
 */
export async function sealedNotUnder(
  db: Db,
  c: SealedColumn,
  currentPrefix: string,
  after: string,
  limit: number,
): Promise<SealedValue[]> {
  const value = sealedValueOf(c);
  const { rows } = await sql<SealedValue>`
    select ${sql.ref(c.id)} as id, ${sql.ref(c.ref)} as ref, ${value} as sealed
    from ${sql.table(c.table)}
    where ${sql.ref(c.id)} > ${after}
      and coalesce(${value}, '') <> ''
      and left(${value}, ${currentPrefix.length}) <> ${currentPrefix}
    order by ${sql.ref(c.id)}
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * Puts a value sealed again in place of the one read, only if that is still there (a value written
 * meanwhile, under the current key already, is left as it is). With an order's PIN, its lookup too.
 * Answers whether it replaced it.
 */
export async function replaceSealed(
  db: Db,
  c: SealedColumn,
  was: SealedValue,
  sealed: string,
  pinLookup?: string,
): Promise<boolean> {
  const set = c.jsonField
    ? sql`${sql.ref(c.column)} = jsonb_set(${sql.ref(c.column)}, ${sql.lit(`{${c.jsonField}}`)}, to_jsonb(${sealed}::text))`
    : pinLookup === undefined
      ? sql`${sql.ref(c.column)} = ${sealed}`
      : sql`${sql.ref(c.column)} = ${sealed}, pin_lookup = ${pinLookup}`;
  const result = await sql`
    update ${sql.table(c.table)} set ${set}
    where ${sql.ref(c.id)} = ${was.id} and ${sealedValueOf(c)} = ${was.sealed}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
