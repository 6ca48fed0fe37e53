// The size of the code in packages/*/src, outside tests: every source file's lines and every
// function's lines (declarations, methods, arrow functions and function expressions, measured from
// the first line of the function to its last). Used by code-size.test.ts (the budget) and runnable
// on its own: `node scripts/bun-run.mjs scripts/code-size.ts` prints the largest.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const root = join(import.meta.dir, '..');

export type Sized = { path: string; name: string; lines: number };

const isSource = (name: string) =>
  /\.(ts|tsx)$/.test(name) && !/\.(test|e2e)\.tsx?$/.test(name) && !name.endsWith('.d.ts');

/** Every non-test source file under packages/<name>/src, relative to the repository root. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'testing') walk(path);
      } else if (isSource(entry.name)) files.push(relative(root, path));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) walk(join(root, 'packages', pkg, 'src'));
  return files.sort();
}

function functionName(node: ts.Node, file: ts.SourceFile): string {
  const named = node as ts.FunctionLikeDeclaration;
  if (named.name) return named.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(file).slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function in one file with its length in lines. */
export function functionsOf(path: string): Sized[] {
  const text = readFileSync(join(root, path), 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Sized[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)
    ) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ path, name: functionName(node, file), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

export function linesOf(path: string): number {
  const text = readFileSync(join(root, path), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

if (import.meta.main) {
  const files = sourceFiles();
  const sizes = files.map((path) => ({ path, name: '', lines: linesOf(path) })).sort((a, b) => b.lines - a.lines);
  const functions = files.flatMap(functionsOf).sort((a, b) => b.lines - a.lines);
  console.log('largest files:');
  for (const f of sizes.slice(0, Number(process.argv[2] ?? 10))) console.log(`  ${f.lines}  ${f.path}`);
  console.log('largest functions:');
  for (const f of functions.slice(0, Number(process.argv[2] ?? 10))) console.log(`  ${f.lines}  ${f.name}  ${f.path}`);
}
