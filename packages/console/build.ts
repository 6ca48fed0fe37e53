/**
 * Builds the support console into packages/console/dist: index.html plus content-hashed files under
 * dist/assets/, which the api serves (index.html for every non-API path, assets cached for a year).
 * The page loads only same-origin files with no inline script, as the server's CSP requires.
 *
 * Run: `bun packages/console/build.ts` (from anywhere). Exits non-zero, with the messages, on any error.
 */
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = import.meta.dir;
const outdir = join(root, 'dist');

/**
 * Entry points. index.html pulls in src/main.tsx and src/styles.css. A Web Worker (e.g. the CSV
 * import) is added here as its own entry so it gets its own hashed file under assets/.
 */
const entrypoints = [join(root, 'index.html')];

const started = performance.now();
await rm(outdir, { recursive: true, force: true });

let result: Awaited<ReturnType<typeof Bun.build>>;
try {
  result = await Bun.build({
    entrypoints,
    outdir,
    target: 'browser',
    minify: true,
    sourcemap: 'linked',
    // Absolute URLs: index.html is served for deep links such as /users/123 too.
    publicPath: '/',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    naming: { entry: '[name].[ext]', chunk: 'assets/[name]-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
    throw: true,
  });
} catch (error) {
  console.error('console build failed:');
  const logs = (error as { errors?: unknown[] }).errors ?? (error instanceof AggregateError ? error.errors : [error]);
  for (const log of logs) console.error(log);
  process.exit(1);
}

if (!result.success) {
  console.error('console build failed:');
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
for (const log of result.logs) console.warn(log);

const outputs = result.outputs.map((o) => `  ${relative(process.cwd(), o.path)}  ${(o.size / 1024).toFixed(1)} KB`);
const index = Bun.file(join(outdir, 'index.html'));
if (!(await index.exists())) {
  console.error('console build failed: dist/index.html was not written');
  process.exit(1);
}
const html = await index.text();
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) {
  console.error('console build failed: dist/index.html has an inline script, which the CSP forbids');
  process.exit(1);
}
console.log(`console built in ${Math.round(performance.now() - started)} ms:\n${outputs.join('\n')}`);
