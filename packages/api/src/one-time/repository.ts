import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The tables of rows good for one use until a time: a password link, a started SSO or NHS login, an SSO
 * continuation ticket. A row is spent by stamping its `used` column with the time, and is void once its
 * `expires` column has passed; the names differ because the tables came at different times.
 */
const columnsOf = {
  password_reset_tokens: { used: 'used_at', expires: 'expires_at' },
  sso_logins: { used: 'used', expires: 'expires' },
  sso_continuations: { used: 'used', expires: 'expires' },
  nhs_logins: { used: 'used', expires: 'expires' },
} as const;
export type OneTimeTable = keyof typeof columnsOf;

/** The row's identifying columns (a token's hash, a browser's hash) and the values they must hold. */
type Match<T extends OneTimeTable> = Partial<Record<keyof Database[T] & string, string>>;

const unspent = <T extends OneTimeTable>(table: T, match: Match<T>, now: number) =>
  sql.join(
    [
      ...Object.entries(match).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
      sql`${sql.ref(columnsOf[table].used)} is null`,
      sql`${sql.ref(columnsOf[table].expires)} > ${now}`,
    ],
    sql` and `,
  );

/** Whether the row matching is unspent and unexpired: a look only, {@link spendOneTimeRow} decides. */
export async function oneTimeRowUsable<T extends OneTimeTable>(
  db: Db,
  table: T,
  match: Match<T>,
  now: number,
): Promise<boolean> {
  const { rows } = await sql`select 1 from ${sql.table(table)} where ${unspent(table, match, now)} limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * Spends the row matching, once, in one conditional statement: of two concurrent takers one gets the row,
 * the other nothing. Answers the row, or undefined when it is unknown, spent or expired.
 */
export async function spendOneTimeRow<T extends OneTimeTable>(
  db: Db,
  table: T,
  match: Match<T>,
  now: number,
): Promise<Selectable<Database[T]> | undefined> {
  const { rows } = await sql<Selectable<Database[T]>>`
    update ${sql.table(table)} set ${sql.ref(columnsOf[table].used)} = ${now}
     where ${unspent(table, match, now)}
    returning *`.execute(db);
  return rows[0];
}
