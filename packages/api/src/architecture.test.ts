import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dir);

/** Every TypeScript source file under packages/api/src, as a path relative to it. */
function sources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** Test code (suites and the helpers only they use) may set up rows as it likes. */
const isTestCode = (file: string) =>
  file.endsWith('.test.ts') ||
  file.endsWith('test-helpers.ts') ||
  file === 'testing.ts' ||
  file === 'auth/testing.ts' ||
  file === 'hubs/test-kit.ts';

const queryBuilding = /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`|\.with\(/;

describe('the api keeps its seams', () => {
  it('builds SQL only in files whose name ends in repository.ts', () => {
    const offences = sources()
      .filter((file) => !file.endsWith('repository.ts') && !isTestCode(file))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (queryBuilding.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offences).toEqual([]);
  });

  it('gives services no HTTP context: only controllers and the rpc layer see the request', () => {
    const httpTypes = /\b(RpcContext|AuthedContext|HttpExchange)\b/;
    const offences = sources()
      .filter((file) => file.startsWith('areas/') || file.startsWith('audit/'))
      .filter((file) => !file.endsWith('/index.ts') && !isTestCode(file))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (httpTypes.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offences).toEqual([]);
  });
});
