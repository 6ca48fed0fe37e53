import { expect, it } from 'bun:test';
import { catalogs } from '../../../../scripts/compile-messages.ts';

/*
 * The console's areas add their words to one layer (areaCatalog): an id written in two catalogs would
 * show whichever area loaded last. Each id is said once across the console.
 */
it('says each console message id in one catalog only', async () => {
  const seen = new Map<string, string>();
  const twice: string[] = [];
  for (const { dir, locale } of catalogs.filter((c) => c.dir.startsWith('packages/console/') && c.locale === 'en')) {
    const source = (await import(`../../../../${dir}/${locale}.ts`))[locale] as Record<string, string>;
    for (const id of Object.keys(source)) {
      const first = seen.get(id);
      if (first) twice.push(`${id}: ${first} and ${dir}`);
      seen.set(id, dir);
    }
  }
  expect(twice).toEqual([]);
});
