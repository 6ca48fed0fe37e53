import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const sources = (readdirSync(import.meta.dir, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .map((f) => ({ file: f, text: readFileSync(join(import.meta.dir, f), 'utf8') }));

describe("the simulator's use of core", () => {
  it('is core’s entry for lockers only: the index would build every RPC schema at each start', () => {
    const imports = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/from '(@medlocker\/core[^']*)'/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => !i.endsWith(': @medlocker/core/locker'))).toEqual([]);
  });
});
