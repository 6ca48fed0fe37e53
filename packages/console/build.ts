/**
 * Builds the support console into packages/console/dist: index.html and sign-in.html plus content-hashed files under
 * dist/assets/, each text file with precompressed .br and .gz copies, which the api serves (index.html for
 * console paths, assets cached for a year). NODE_ENV=production builds no source maps.
 * The page loads only same-origin files with no inline script, as the server's CSP requires.
 *
 * Run: `bun packages/console/build.ts` (from anywhere). Exits non-zero, with the messages, on any error.
 * CONSOLE_OUTDIR builds elsewhere than dist/ (bundle.test.ts does, so a running server keeps its files).
 */
import { rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { precompress } from '../../scripts/precompress.ts';

const root = import.meta.dir;
/** NODE_ENV=production builds no source maps: the console's source is not published. */
const production = process.env.NODE_ENV === 'production';
const outdir = process.env.CONSOLE_OUTDIR ? resolve(process.env.CONSOLE_OUTDIR) : join(root, 'dist');

/**
 * The pages: index.html pulls in src/main.tsx (the console, React) and src/styles.css; sign-in.html
 * the sign-in pages (src/sign-in, plain DOM, no React) and the same styles. The api serves
 * sign-in.html for /auth/* and index.html for every other console path.
 */
const pages = ['index.html', 'sign-in.html'];
const entrypoints = pages.map((page) => join(root, page));

/**
 * Web Workers, name → source (e.g. `csvImport: 'src/import/csv-import.worker.ts'`). Bun does not
 * follow `new Worker(new URL(…))`, so each is bundled first to its own hashed file under assets/,
 * and the app reads its URL with `workerUrl(name)` (src/worker-url.ts) from a build-time constant.
 */
const workers: Record<string, string> = { patientImport: 'src/workers/import.worker.ts' };

/**
 * React Aria ships its screen-reader strings ("Show suggestions", "selected") in 34 languages and
 * picks them by the browser's language. The console speaks English whatever the browser (SPEC: en-GB),
 * so its announcements do too: every string table keeps English only (some 6 KB of brotli off each
 * signed-in page).
 */
const englishAriaStrings: import('bun').BunPlugin = {
  name: 'english-aria-strings',
  setup(build) {
    build.onLoad({ filter: /react-aria(-components)?[\\/]dist[\\/].*intlStrings\.mjs$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const contents = source
        .split('\n')
        .filter((line) => !/(^import .*\/intl\/|^\s+"[a-z]{2}-[A-Z]{2}": )/.test(line) || /en-?US/.test(line))
        .join('\n');
      return { contents, loader: 'js' };
    });
  },
};

const started = performance.now();
await rm(outdir, { recursive: true, force: true });

const workerUrls: Record<string, string> = {};
for (const [name, source] of Object.entries(workers)) {
  const built = await bundle({
    entrypoints: [join(root, source)],
    naming: {
      entry: 'assets/[name]-[hash].[ext]',
      chunk: 'assets/[name]-[hash].[ext]',
      asset: 'assets/[name]-[hash].[ext]',
    },
  });
  const entry = built.outputs.find((o) => o.kind === 'entry-point');
  if (!entry) fail(`worker ${name} produced no file`);
  workerUrls[name] = `/${relative(outdir, entry.path)}`;
}

const result = await bundle({
  entrypoints,
  naming: { entry: '[name].[ext]', chunk: 'assets/[name]-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
});

/** One Bun.build with the console's settings; exits with every message on failure. */
async function bundle(options: Pick<Parameters<typeof Bun.build>[0], 'entrypoints' | 'naming'>) {
  let built: Awaited<ReturnType<typeof Bun.build>>;
  try {
    built = await Bun.build({
      ...options,
      outdir,
      target: 'browser',
      minify: true,
      // Pages loaded with import() become their own chunks under assets/.
      splitting: true,
      sourcemap: production ? 'none' : 'linked',
      // Absolute URLs: index.html is served for deep links such as /users/123 too.
      publicPath: '/',
      define: {
        'process.env.NODE_ENV': JSON.stringify('production'),
        CONSOLE_WORKER_URLS: JSON.stringify(workerUrls),
      },
      throw: true,
      plugins: [englishAriaStrings],
    });
  } catch (error) {
    const logs = (error as { errors?: unknown[] }).errors ?? (error instanceof AggregateError ? error.errors : [error]);
    fail(logs.map((log) => Bun.inspect(log)).join('\n'));
  }
  if (!built.success) fail(built.logs.map((log) => Bun.inspect(log)).join('\n'));
  for (const log of built.logs) console.warn(log);
  return built;
}

function fail(message: string): never {
  console.error(`console build failed:\n${message}`);
  process.exit(1);
}

/** Brotli and gzip copies of every text file (scripts/precompress.ts); source maps are not on the wire. */
const wire = (await precompress(outdir))
  .filter((file) => !file.name.endsWith('.map'))
  .reduce((sum, file) => sum + file.wire, 0);

const outputs = result.outputs.map((o) => `  ${relative(process.cwd(), o.path)}  ${(o.size / 1024).toFixed(1)} KB`);
for (const page of pages) {
  const html = Bun.file(join(outdir, page));
  if (!(await html.exists())) fail(`dist/${page} was not written`);
  if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(await html.text())) {
    fail(`dist/${page} has an inline script, which the CSP forbids`);
  }
}
// One line by default (`npm start` prints it above the demo's sign-in); every file with BUILD_VERBOSE=1.
const total = result.outputs.reduce((sum, o) => sum + o.size, 0);
const files = process.env.BUILD_VERBOSE === '1' ? `\n${outputs.join('\n')}` : '';
console.log(
  `console built in ${Math.round(performance.now() - started)} ms${production ? ' (production: no source maps)' : ''}: ${result.outputs.length} files, ${(total / 1024).toFixed(1)} KB${files}`,
);
console.log(
  `  all files brotli-compressed: ${(wire / 1024).toFixed(1)} KB (bundle.test.ts measures what the sign-in page and the dashboard load)`,
);
