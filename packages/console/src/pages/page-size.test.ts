import { expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A page file longer than this is split into components (a page a reader takes in at once). */
const maxLines = 250;

/** An area's catalogs (`i18n/`) are its words, one message a line, not a page: code-size.test.ts bounds them. */
const isCatalogs = (name: string) => name === 'i18n';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return isCatalogs(name) ? [] : files(path);
    return /\.tsx?$/.test(name) && !/\.test\./.test(name) ? [path] : [];
  });
}

it(`no page file is over ${maxLines} lines`, () => {
  const long = files(import.meta.dir)
    .map((path) => ({
      path: relative(import.meta.dir, path),
      lines: readFileSync(path, 'utf8').split('\n').length - 1,
    }))
    .filter((file) => file.lines > maxLines)
    .map((file) => `${file.path} (${file.lines} lines)`);
  expect(long).toEqual([]);
});
