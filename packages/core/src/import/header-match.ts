/*
 * Matching a CSV's header names to the fields an import knows, shared by the patient and the order
 * imports: a header names a field by its name, its label or an alias, in any case and punctuation.
 */

/** Lower case, letters and digits only: 'NHS Number', 'nhs_number' and 'NHSNumber' read the same. */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field a header names (by name, label or alias, any case), or null when it names none. */
export function fieldByHeader<F extends string>(
  header: string,
  fields: readonly F[],
  labels: Readonly<Record<F, string>>,
  aliases: Readonly<Record<string, F>>,
): F | null {
  const key = squash(header);
  if (key === '') return null;
  return fields.find((f) => squash(f) === key || squash(labels[f]) === key) ?? aliases[key] ?? null;
}

/** Each header's field, each field used once: a later header naming a field already taken maps to null. */
export function guessEachOnce<F extends string>(
  headers: readonly string[],
  fieldOf: (header: string) => F | null,
): (F | null)[] {
  const used = new Set<F>();
  return headers.map((header) => {
    const field = fieldOf(header);
    if (!field || used.has(field)) return null;
    used.add(field);
    return field;
  });
}
