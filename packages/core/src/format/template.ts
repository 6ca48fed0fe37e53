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
