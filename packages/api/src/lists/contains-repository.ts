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
  patient_sign_ups: `(first_name || ' ' || last_name || E'\\n' || coalesce(email, '') || E'\\n' || coalesce(mobile_number, ''))`,
  bags: `(barcode || E'\\n' || coalesce(reference, '') || E'\\n' || coalesce(location, ''))`,
  orders: `(barcode || E'\\n' || reference || E'\\n' || patient_name)`,
} as const;

/**
 * Tables searched column by column: one trigram GIN index over the columns (migration 0055) keeps each
 * column's trigrams apart, so the words of one column do not make every row a candidate for a search
 * aimed at another (in patients' joined text, every display id's digits matched an email's). The search
 * ORs `column ilike pattern`, each arm one scan of that index. A match never spans two columns.
 */
export const SEARCH_COLUMNS = {
  patients: ['full_name', 'email', 'display_id', 'mobile_number'],
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
  return anyContains(patternsOf(texts).map((p) => [SEARCH_TEXT[table], p]));
}

/**
 * True when any of a SEARCH_COLUMNS table's columns contains any of the texts given for it (any case):
 * each column may take its own texts (a typed number also as it is stored, where only that column stores it).
 */
export function containsIn<T extends keyof typeof SEARCH_COLUMNS>(
  table: T,
  texts: Record<(typeof SEARCH_COLUMNS)[T][number], string[]>,
) {
  const columns: readonly (typeof SEARCH_COLUMNS)[T][number][] = SEARCH_COLUMNS[table];
  return anyContains(columns.flatMap((c) => patternsOf(texts[c]).map((p): [string, string] => [c, p])));
}

const patternsOf = (texts: string[]) => [...new Set(texts.filter(Boolean).map(containsPattern))];

/** `expression ilike pattern` for each pair, ORed. */
function anyContains(arms: [expression: string, pattern: string][]) {
  const tests = arms.map(([expr, p]) => sql<boolean>`${sql.raw(expr)} ilike ${p}`);
  return tests.length === 1 ? (tests[0] as (typeof tests)[number]) : sql<boolean>`(${sql.join(tests, sql` or `)})`;
}
