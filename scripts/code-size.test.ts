import { describe, expect, it } from 'bun:test';
import { functionsOf, linesOf, sourceFiles } from './code-size.ts';

/*
 * STYLE.md's budget for the code in packages/<name>/src (tests and test helpers excluded): a reader takes in
 * a function whole and a file in one sitting. A part over budget is split by what it does, not by count.
 */
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const files = sourceFiles();

describe('the size of the code in the packages', () => {
  it('reads every package', () => {
    for (const pkg of ['api', 'console', 'core', 'patient', 'cli', 'locker-sim']) {
      expect(files.some((file) => file.startsWith(`packages/${pkg}/src/`))).toBe(true);
    }
  });

  it(`has no source file over ${MAX_FILE_LINES} lines`, () => {
    const over = files.map((path) => ({ path, lines: linesOf(path) })).filter((f) => f.lines > MAX_FILE_LINES);
    expect(over.map((f) => `${f.path}: ${f.lines} lines`)).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const over = files.flatMap(functionsOf).filter((f) => f.lines > MAX_FUNCTION_LINES);
    expect(over.map((f) => `${f.path}: ${f.name}, ${f.lines} lines`)).toEqual([]);
  });
});
