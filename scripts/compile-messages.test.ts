import { expect, it } from 'bun:test';
import { catalogs, compileCatalog } from './compile-messages.ts';

it('keeps every compiled catalog as its reviewed source says (run scripts/compile-messages.ts after an edit)', async () => {
  for (const { dir, locale } of catalogs) {
    const source = (await import(`../${dir}/${locale}.ts`))[locale] as Record<string, string>;
    const { messages } = await import(`../${dir}/${locale}.compiled.ts`);
    // Through JSON, as the compiled file was written (an undefined plural offset is left out).
    expect([dir, locale, messages]).toEqual([dir, locale, JSON.parse(JSON.stringify(compileCatalog(source)))]);
  }
});

it('refuses a malformed message rather than compiling it', () => {
  expect(() => compileCatalog({ broken: 'You have {count, plural, one {# order}' })).toThrow();
});
