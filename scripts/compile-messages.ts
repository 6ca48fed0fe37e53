/**
 * Compiles each front end's reviewed catalogs (`<locale>.ts`, ICU MessageFormat) into
 * `<locale>.compiled.ts` beside them, the form Lingui's runtime reads without a parser, so no message is
 * parsed in a browser (docs/ARCHITECTURE.md, Languages). Run after editing a catalog:
 * `node_modules/.bin/bun scripts/compile-messages.ts`; each front end's i18n test fails while a
 * compiled file is stale.
 */
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

/** Every catalog: folder, locale and the name its source file exports. */
export const catalogs = [
  { dir: 'packages/patient/src/i18n', locale: 'en' },
  { dir: 'packages/patient/src/i18n', locale: 'cy' },
  { dir: 'packages/console/src/i18n', locale: 'en' },
] as const;

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
  Bun.spawnSync([`${root}/node_modules/.bin/biome`, 'format', '--write', ...catalogs.map((c) => `${root}/${c.dir}`)]);
}
