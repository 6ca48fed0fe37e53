/**
 * Compiles each front end's reviewed catalogs (`<locale>.ts`, ICU MessageFormat) into
 * `<locale>.compiled.ts` beside them, the form Lingui's runtime reads without a parser, so no message is
 * parsed in a browser (docs/ARCHITECTURE.md, Languages). Run after editing a catalog:
 * `node_modules/.bin/bun scripts/compile-messages.ts`; each front end's i18n test fails while a
 * compiled file is stale.
 */
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

/**
 * Every catalog: folder and locale (the name its source file exports). A front end's catalogs are its
 * `i18n/<locale>.ts` files anywhere under `src`: the patient page's one per language, the console's one per area
 * (`src/i18n` for the shell, `src/pages/<area>/i18n`, `src/sign-in/i18n`, …), each compiled beside it.
 */
export const catalogs: { dir: string; locale: string }[] = [
  ...new Bun.Glob('packages/{patient,console}/src/**/i18n/*.ts').scanSync({ cwd: `${import.meta.dir}/..` }),
]
  .map((path) => path.match(/^(.*)\/([a-z]{2})\.ts$/))
  .filter((m): m is RegExpMatchArray => m !== null)
  .map((m) => ({ dir: m[1] as string, locale: m[2] as string }))
  .sort((a, b) => `${a.dir}/${a.locale}`.localeCompare(`${b.dir}/${b.locale}`));

/** A source catalog compiled: message id → Lingui's compiled tokens (throws on a malformed message). */
export const compileCatalog = (source: Record<string, string>) =>
  Object.fromEntries(Object.entries(source).map(([id, text]) => [id, compileMessageOrThrow(text)]));

if (import.meta.main) {
  const root = `${import.meta.dir}/..`;
  for (const { dir, locale } of catalogs) {
    const source = (await import(`${root}/${dir}/${locale}.ts`))[locale] as Record<string, string>;
    const body = JSON.stringify(compileCatalog(source), null, 2);
    await Bun.write(
      `${root}/${dir}/${locale}.compiled.ts`,
      `// Written by scripts/compile-messages.ts from ${locale}.ts: edit that, then run it again.\nimport type { Messages } from '@lingui/core';\n\nexport const messages: Messages = ${body};\n`,
    );
    console.log(`wrote ${dir}/${locale}.compiled.ts (${Object.keys(source).length} messages)`);
  }
  // Written as Biome would format it, so the repository's check passes as is.
  Bun.spawnSync([
    `${root}/node_modules/.bin/biome`,
    'format',
    '--write',
    ...new Set(catalogs.map((c) => `${root}/${c.dir}`)),
  ]);
}
