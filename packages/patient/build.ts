/**
 * Builds the patient page into packages/patient/dist: index.html plus content-hashed files under
 * dist/patient-assets/ (a prefix of its own, so they never collide with the console's /assets/), each
 * text file with precompressed .br and .gz copies, which the api serves (index.html for /p/… paths,
 * assets cached for a year). NODE_ENV=production builds no source maps.
 * The page loads only same-origin files with no inline script, as its strict CSP requires
 * (packages/api/src/http/patient-static.ts).
 *
 * Run: `bun packages/patient/build.ts` (from anywhere). Exits non-zero, with the messages, on any error.
 */
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { precompress } from '../../scripts/precompress.ts';

const root = import.meta.dir;
const production = process.env.NODE_ENV === 'production';
const outdir = join(root, 'dist');
/** Where the hashed files go, and the URL prefix the api serves them under. */
const assetsPrefix = 'patient-assets';

const started = performance.now();
await rm(outdir, { recursive: true, force: true });

let result: Awaited<ReturnType<typeof Bun.build>>;
try {
  result = await Bun.build({
    entrypoints: [join(root, 'index.html')],
    outdir,
    target: 'browser',
    minify: true,
    splitting: true,
    sourcemap: production ? 'none' : 'linked',
    // Absolute URLs: index.html is served for /p/{orderId} and other deep links.
    publicPath: '/',
    naming: {
      entry: '[name].[ext]',
      chunk: `${assetsPrefix}/[name]-[hash].[ext]`,
      asset: `${assetsPrefix}/[name]-[hash].[ext]`,
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    throw: true,
  });
} catch (error) {
  const logs = (error as { errors?: unknown[] }).errors ?? (error instanceof AggregateError ? error.errors : [error]);
  fail(logs.map((log) => Bun.inspect(log)).join('\n'));
}
if (!result.success) fail(result.logs.map((log) => Bun.inspect(log)).join('\n'));
for (const log of result.logs) console.warn(log);

function fail(message: string): never {
  console.error(`patient page build failed:\n${message}`);
  process.exit(1);
}

const jsOnWire = (await precompress(outdir))
  .filter((file) => file.name.endsWith('.js'))
  .reduce((sum, file) => sum + file.wire, 0);

const index = Bun.file(join(outdir, 'index.html'));
if (!(await index.exists())) fail('dist/index.html was not written');
const html = await index.text();
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) fail('dist/index.html has an inline script, which the CSP forbids');
if (/\bstyle=/i.test(html) || /<style[\s>]/i.test(html))
  fail('dist/index.html has inline styles, which the CSP forbids');
if (!html.includes(`/${assetsPrefix}/`)) fail(`dist/index.html does not load its files from /${assetsPrefix}/`);

const outputs = result.outputs.map((o) => `  ${relative(process.cwd(), o.path)}  ${(o.size / 1024).toFixed(1)} KB`);
// One line by default (`npm start` prints it above the demo's sign-in); every file with BUILD_VERBOSE=1.
const files = process.env.BUILD_VERBOSE === '1' ? `\n${outputs.join('\n')}` : '';
console.log(
  `patient page built in ${Math.round(performance.now() - started)} ms${production ? ' (production: no source maps)' : ''}: ${result.outputs.length} files${files}`,
);
console.log(`  JavaScript, brotli-compressed: ${(jsOnWire / 1024).toFixed(1)} KB (at most 100 KB, bundle.test.ts)`);
