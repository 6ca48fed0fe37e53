import { type RawBuilder, sql } from 'kysely';

/**
 * "Contains" search for every list: the words a person typed, anywhere in the row's searchable text, in
 * any case. Each table searches one expression (its searchable columns joined by a line feed, which no
 * one types into a search box, so a match never spans two columns unless the text itself holds one), and
 * migration 0013 indexes exactly that expression with a pg_trgm GIN index (PostgreSQL, and PGlite with
 * its pg_trgm extension), which serves `ilike '%text%'` directly. The SQL text here must stay the
 * migration's, character for character, or the planner no longer matches the index: the contains test
 * checks every list's plan uses it. Patients are searched column by column instead (SEARCH_COLUMNS).
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
 * An `email` column is read through the index by the text up to its '@' (emailContains).
 */
export const SEARCH_COLUMNS = {
  patients: { full_name: 'text', email: 'email', display_id: 'text', mobile_number: 'text' },
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
  return anyOf(patternsOf(texts).map((p) => sql<boolean>`${sql.raw(SEARCH_TEXT[table])} ilike ${p}`));
}

/**
 * True when any of a SEARCH_COLUMNS table's columns contains any of the texts given for it (any case):
 * each column may take its own texts (a typed number also as it is stored, where only that column stores it).
 */
export function containsIn<T extends keyof typeof SEARCH_COLUMNS>(
  table: T,
  texts: Record<keyof (typeof SEARCH_COLUMNS)[T], string[]>,
) {
  const columns = Object.entries(SEARCH_COLUMNS[table]) as [keyof (typeof SEARCH_COLUMNS)[T] & string, string][];
  return anyOf(
    columns.flatMap(([column, kind]) =>
      [...new Set(texts[column].filter(Boolean))].map((text) =>
        kind === 'email'
          ? emailContains(column, text)
          : sql<boolean>`${sql.ref(column)} ilike ${containsPattern(text)}`,
      ),
    ),
  );
}

/**
 * An email column contains `text` (any case), exact. When the text has three characters or more before
 * an '@', the trigram index is asked only for that part with its '@' and the whole text is checked on
 * the rows it finds: the domain after the '@' (nhs.net, gmail.com) is shared by many patients, and the
 * index read every such patient's entry for its trigrams (at 100,000 patients 4 of a 5 ms search, 0.4 ms
 * without). `strpos` on `lower` is "contains, any case" that no index matches, so the planner keeps it a filter.
 */
export function emailContains(column: string, text: string) {
  const at = text.indexOf('@');
  const ref = sql.ref(column);
  if (at < 3) return sql<boolean>`${ref} ilike ${containsPattern(text)}`;
  return sql<boolean>`(${ref} ilike ${containsPattern(text.slice(0, at + 1))} and strpos(lower(${ref}), lower(${text})) > 0)`;
}

const patternsOf = (texts: string[]) => [...new Set(texts.filter(Boolean).map(containsPattern))];

/** The tests ORed (the one test alone). */
function anyOf(tests: RawBuilder<boolean>[]) {
  return tests.length === 1 ? (tests[0] as RawBuilder<boolean>) : sql<boolean>`(${sql.join(tests, sql` or `)})`;
}
