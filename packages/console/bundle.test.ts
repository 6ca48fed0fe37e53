import { afterAll, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/*
 * What a browser downloads for the console's first pages, brotli-compressed as the server sends it
 * (scripts/precompress.ts: quality 11). The sign-in page must stay light and the console behind it
 * must load by route, so a new import cannot quietly put a page's weight on every page. Builds the
 * console itself (build.ts) into a folder of its own.
 */

/**
 * The most JavaScript /auth/login may fetch: the sign-in pages are a page of their own
 * (sign-in.html, src/sign-in) in plain DOM, without React (React DOM alone would be 55 KB of it).
 */
const MAX_SIGN_IN_BYTES = 60 * 1024;
/**
 * The most JavaScript either dashboard may fetch after sign-in: signing in opens the console with a
 * page load, so that is index.html's scripts, the signed-in part and the dashboard's own chunk (the
 * sign-in page's scripts are not counted: they belong to the page that was left). No schema library:
 * core's modules the dashboard reads (live-push, errors/levels, fleet-rules, opening-hours) import none.
 */
const MAX_DASHBOARD_BYTES = 200 * 1024;

const dist = mkdtempSync(join(tmpdir(), 'console-bundle-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const build = Bun.spawnSync([process.execPath, join(import.meta.dir, 'build.ts')], {
  env: { ...process.env, CONSOLE_OUTDIR: dist, NODE_ENV: 'production' },
  stdout: 'pipe',
  stderr: 'pipe',
});
if (build.exitCode !== 0) throw new Error(`the console did not build:\n${build.stderr.toString()}`);

it('says in two lines what it built, so `npm start` keeps the demo sign-in in view (BUILD_VERBOSE=1 lists every file)', () => {
  const printed = build.stdout.toString().trim().split('\n');
  expect(printed).toHaveLength(2);
  expect(printed[0]).toMatch(/^console built in \d+ ms \(production: no source maps\): \d+ files, [\d.]+ KB$/);
});

const read = (url: string) => readFileSync(join(dist, url));
const resolveFrom = (url: string, specifier: string) => new URL(specifier, `http://console${url}`).pathname;

/** What `url` imports statically (loaded with it) and with `import()` (loaded when a route opens). */
function importsOf(url: string) {
  const code = read(url).toString('utf8');
  const found = (re: RegExp) => [...code.matchAll(re)].map((m) => resolveFrom(url, m[1] ?? ''));
  return {
    // `import … from"./x.js"`, `import"./x.js"`, `export … from"./x.js"`.
    static: found(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g),
    dynamic: found(/\bimport\(\s*["']([^"']+\.js)["']\s*\)/g),
  };
}

/** The scripts `roots` load, with what they import statically, transitively. */
function loadedWith(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const url = queue.shift() ?? '';
    if (seen.has(url)) continue;
    seen.add(url);
    queue.push(...importsOf(url).static);
  }
  return seen;
}

/** The chunk of a lazily loaded module (`name-hash.js`) that one of `scripts` asks for with import(). */
function lazyChunk(scripts: Set<string>, name: string): string {
  const chunk = [...scripts].flatMap((url) => importsOf(url).dynamic).find((url) => url.includes(`/${name}-`));
  if (!chunk) throw new Error(`no lazily loaded ${name} chunk`);
  return chunk;
}

/** Bytes on the wire for a browser accepting brotli, and raw and gzip for the record. */
function sizes(scripts: Set<string>) {
  let raw = 0;
  let brotli = 0;
  let gzip = 0;
  for (const url of scripts) {
    const file = read(url);
    raw += file.length;
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: file.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    };
    brotli += Math.min(file.length, brotliCompressSync(file, { params }).length);
    gzip += Math.min(file.length, gzipSync(file, { level: 9 }).length);
  }
  return { files: scripts.size, raw, brotli, gzip };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const report = (route: string, s: ReturnType<typeof sizes>) =>
  console.log(`${route}: ${s.files} scripts, ${kb(s.raw)} raw, ${kb(s.brotli)} brotli, ${kb(s.gzip)} gzip`);

/** The scripts a page's HTML names (`<script src>`), each loading its static imports with it. */
const scriptsOf = (page: string) =>
  [
    ...read(page)
      .toString('utf8')
      .matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi),
  ].map((m) => m[1] ?? '');
const entry = scriptsOf('index.html');
const signInEntry = scriptsOf('sign-in.html');
const signIn = loadedWith(signInEntry);

it('loads at most 60 KB of JavaScript for the sign-in page, and no React', () => {
  expect(signInEntry.length).toBe(1);
  const s = sizes(signIn);
  report('/auth/login', s);
  // Some script must be there (a page that failed to build its script would pass otherwise).
  expect(s.brotli).toBeGreaterThan(2 * 1024);
  expect(s.brotli).toBeLessThanOrEqual(MAX_SIGN_IN_BYTES);
  for (const url of signIn) expect(read(url).toString('utf8')).not.toContain('react.transitional.element');
});

it('loads the console behind sign-in only when it is opened', () => {
  expect(entry.length).toBe(1);
  // The sign-in page can reach none of it, not even lazily.
  const reachable = [...signIn, ...[...signIn].flatMap((url) => importsOf(url).dynamic)].join(' ');
  const first = [...loadedWith(entry)].join(' ');
  for (const page of ['signed-in-routes', 'Dashboard', 'BusinessRoutes', 'GroupRoutes']) {
    expect(reachable).not.toContain(`/${page}-`);
    expect(first).not.toContain(`/${page}-`);
  }
});

it('loads at most 200 KB of JavaScript for either dashboard after sign-in', () => {
  const console_ = loadedWith(entry);
  const signedIn = lazyChunk(console_, 'signed-in-routes');
  const behind = loadedWith([signedIn]);
  for (const dashboard of ['Dashboard', 'PharmacyDashboard']) {
    const s = sizes(loadedWith([...entry, signedIn, lazyChunk(behind, dashboard)]));
    report(dashboard, s);
    expect(s.brotli).toBeLessThanOrEqual(MAX_DASHBOARD_BYTES);
  }
}, 120_000); // brotli 11 over 700 KB takes seconds, and more on a busy machine
