/**
 * Puts values into a template's `${name}` placeholders. A placeholder without an entry in `values`
 * is left as written, so a preview shows the mistake rather than hiding it; an entry set to
 * `undefined` renders as ''. Used for SMS templates and alarm message templates alike.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\$\{([^}]*)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? '') : whole,
  );
}

/**
 * Message templates as their page shows them: each key's own stored body where there is one, else the
 * default, with the keys that have their own (a business's SMS templates, the estate's alarm messages).
 * A stored key no longer in `keys` is left out.
 */
export function templatesOverDefaults<K extends string>(
  defaults: Record<K, string>,
  keys: readonly K[],
  own: ReadonlyMap<string, string>,
): { templates: Record<K, string>; customised: K[] } {
  const templates = { ...defaults };
  const customised: K[] = [];
  for (const key of keys) {
    const body = own.get(key);
    if (body !== undefined) {
      templates[key] = body;
      customised.push(key);
    }
  }
  return { templates, customised };
}
