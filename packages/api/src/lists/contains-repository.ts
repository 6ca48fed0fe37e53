import { sql } from 'kysely';

/**
 * "Contains" search for every list: the words a person typed, anywhere in the row's searchable text, in
 * any case. Each table searches one expression (its searchable columns joined by a line feed, which no
 * one types into a search box, so a match never spans two columns unless the text itself holds one), and
 * migration 0013 indexes exactly that expression with a pg_trgm GIN index (PostgreSQL, and PGlite with
 * its pg_trgm extension), which serves `ilike '%text%'` directly. The SQL text here must stay the
 * migration's, character for character, or the planner no longer matches the index: the contains test
 * checks every list's plan uses it.
 */
export const SEARCH_TEXT = {
  businesses: 'name',
  groups: 'name',
  machines: 'name',
  users: `(email_normalised || E'\\n' || given_name || ' ' || family_name)`,
  patients: `(full_name || E'\\n' || coalesce(email, '') || E'\\n' || display_id || E'\\n' || coalesce(mobile_number, ''))`,
  patient_sign_ups: `(first_name || ' ' || last_name || E'\\n' || coalesce(email, '') || E'\\n' || coalesce(mobile_number, ''))`,
  bags: `(barcode || E'\\n' || coalesce(reference, '') || E'\\n' || coalesce(location, ''))`,
  orders: `(barcode || E'\\n' || reference || E'\\n' || patient_name)`,
} as const;

/** `like` treats %, _ and \ specially: a filter typed by a person means them literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ilike pattern for "contains `text`". */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/**
 * True when the table's search text contains any of `texts` (case-insensitive).
 * Several texts (the text as typed and, say, the same text as a stored phone number) are ORed on the
 * same expression: one bitmap scan of the same index each.
 */
export function contains(table: keyof typeof SEARCH_TEXT, ...texts: string[]) {
  const patterns = [...new Set(texts.filter(Boolean).map(containsPattern))];
  const expr = sql.raw(SEARCH_TEXT[table]);
  if (patterns.length === 1) return sql<boolean>`${expr} ilike ${patterns[0]}`;
  return sql<boolean>`(${sql.join(
    patterns.map((p) => sql`${expr} ilike ${p}`),
    sql` or `,
  )})`;
}
