/**
 * What the sign-in page (/auth/login) downloads, from the built console (packages/console/dist):
 * index.html, the stylesheets it links, and the scripts it loads with every module those import
 * statically (a page's lazy `import()` chunks load only when visited, so they are not counted). Each
 * file counted raw, gzip and brotli, as the server sends them (the .gz/.br copies made by the build).
 * Goal: at most 150 KB of JavaScript on the wire, brotli, for the sign-in page.
 *
 * Run: `bun packages/console/build.ts && bun bench/console/sign-in.bench.ts` (`--markdown` prints the
 * docs/PERFORMANCE.md row).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const GOAL_JS_BROTLI = 150 * 1024;
const dist = resolve(import.meta.dir, '../../packages/console/dist');
const indexPath = join(dist, 'index.html');
if (!existsSync(indexPath)) {
  console.error('packages/console/dist/index.html is missing: run `bun packages/console/build.ts` first');
  process.exit(1);
}

type Sizes = { raw: number; gzip: number; brotli: number };
/** A file's size raw and as each precompressed copy (compressed here when the build made none). */
function sizes(path: string): Sizes {
  const raw = readFileSync(path);
  const copy = (ext: string, make: () => Uint8Array) =>
    existsSync(`${path}.${ext}`) ? statSync(`${path}.${ext}`).size : Math.min(raw.length, make().length);
  return { raw: raw.length, gzip: copy('gz', () => gzipSync(raw)), brotli: copy('br', () => brotliCompressSync(raw)) };
}

const fileOf = (url: string) => join(dist, url.replace(/^\//, '').split(/[?#]/)[0] ?? '');
const html = readFileSync(indexPath, 'utf8');
const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] ?? '');
const styles = [...html.matchAll(/<link[^>]*rel="(?:stylesheet|modulepreload)"[^>]*href="([^"]+)"/g)].map(
  (m) => m[1] ?? '',
);

/** Static imports of a built module: `import"/assets/x.js"`, `import{a}from"/assets/x.js"`, `export … from`. */
const STATIC_IMPORT = /(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?["']([^"']+\.js)["']/g;
const seen = new Set<string>();
const walk = (url: string) => {
  if (seen.has(url)) return;
  seen.add(url);
  const text = readFileSync(fileOf(url), 'utf8');
  for (const m of text.matchAll(STATIC_IMPORT)) {
    const target = m[1] ?? '';
    walk(target.startsWith('/') ? target : new URL(target, `http://x${url}`).pathname);
  }
};
for (const s of scripts) walk(s);

const rows: { kind: string; url: string; s: Sizes }[] = [
  { kind: 'HTML', url: '/auth/login (index.html)', s: sizes(indexPath) },
  ...styles.filter((u) => u.endsWith('.css')).map((url) => ({ kind: 'CSS', url, s: sizes(fileOf(url)) })),
  ...[...seen].map((url) => ({ kind: 'JS', url, s: sizes(fileOf(url)) })),
];
const sum = (kind: string) =>
  rows
    .filter((r) => r.kind === kind)
    .reduce((a, r) => ({ raw: a.raw + r.s.raw, gzip: a.gzip + r.s.gzip, brotli: a.brotli + r.s.brotli }), {
      raw: 0,
      gzip: 0,
      brotli: 0,
    });
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

console.log('The sign-in page downloads (packages/console/dist):');
for (const r of rows) {
  console.log(
    `  ${r.kind.padEnd(4)} ${r.url.padEnd(42)} raw ${kb(r.s.raw).padStart(9)}  gzip ${kb(r.s.gzip).padStart(9)}  brotli ${kb(r.s.brotli).padStart(9)}`,
  );
}
const js = sum('JS');
const css = sum('CSS');
const page = sum('HTML');
const all = {
  raw: js.raw + css.raw + page.raw,
  brotli: js.brotli + css.brotli + page.brotli,
  gzip: js.gzip + css.gzip + page.gzip,
};
const met = js.brotli <= GOAL_JS_BROTLI;
console.log(`\n  JavaScript: ${kb(js.brotli)} brotli (${kb(js.gzip)} gzip, ${kb(js.raw)} raw) in ${seen.size} file(s)`);
console.log(
  `  CSS ${kb(css.brotli)} brotli (${kb(css.raw)} raw); HTML ${kb(page.brotli)} brotli (${kb(page.raw)} raw)`,
);
console.log(`  Everything: ${kb(all.brotli)} brotli, ${kb(all.gzip)} gzip, ${kb(all.raw)} raw`);
console.log(`  Goal: JavaScript ≤ ${kb(GOAL_JS_BROTLI)} brotli: ${met ? 'MET' : 'NOT MET'}`);
if (process.argv.includes('--markdown')) {
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  console.log(
    `\n| ${date} UTC | ${seen.size} | **${kb(js.brotli)}** | ${kb(js.gzip)} | ${kb(js.raw)} | ${kb(css.brotli)} / ${kb(css.raw)} | ${kb(page.brotli)} / ${kb(page.raw)} | ${kb(all.brotli)} | ${met ? 'met' : 'not met'} |`,
  );
}
process.exit(met ? 0 : 1);
