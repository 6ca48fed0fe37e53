import { expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { patientCsp } from '../api/src/http/patient-static.ts';
import { describeApi } from '../api/src/testing/api.ts';

/*
 * The patient page as a phone downloads it: at most 100 KB of JavaScript on the wire, under
 * its strict CSP, with no script from anywhere else. Builds the page first (build.ts), as npm start does.
 */

const dist = join(import.meta.dir, 'dist');
const build = Bun.spawnSync([process.execPath, join(import.meta.dir, 'build.ts')], { stdout: 'pipe', stderr: 'pipe' });
if (build.exitCode !== 0) throw new Error(`the patient page did not build:\n${build.stderr.toString()}`);

/** The most JavaScript a first load may fetch, brotli-compressed as the server sends it. */
const MAX_JS_BYTES = 100 * 1024;

/** The src/href of each tag in the page. */
const attributes = (html: string, tag: string, attribute: string) =>
  [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${attribute}="([^"]+)"`, 'gi'))].map((m) => m[1] ?? '');

/** A file as the server sends it to a browser accepting brotli: its .br copy, or the file itself. */
function wireBytes(urlPath: string): number {
  const file = join(dist, urlPath);
  if (existsSync(`${file}.br`)) return readFileSync(`${file}.br`).length;
  const raw = readFileSync(file);
  return Math.min(raw.length, brotliCompressSync(raw).length);
}

/**
 * Every script a first load fetches: the page's module scripts and preloads, and what they import
 * statically, transitively (`import("…")`, loaded later if at all, is not counted).
 */
function firstLoadScripts(html: string): string[] {
  const seen = new Set<string>();
  const queue = [...attributes(html, 'script', 'src'), ...attributes(html, 'link[^>]*rel="modulepreload"', 'href')];
  while (queue.length > 0) {
    const url = queue.shift() ?? '';
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(join(dist, url), 'utf8');
    // Static imports only: `import … from"./x.js"`, `import"./x.js"`, `export … from"./x.js"`.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) {
      queue.push(new URL(m[1] ?? '', `http://page${url}`).pathname);
    }
  }
  return [...seen];
}

it('fetches at most 100 KB of JavaScript on a first load', () => {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = firstLoadScripts(html);
  expect(scripts.length).toBeGreaterThan(0);
  const total = scripts.reduce((sum, url) => sum + wireBytes(url), 0);
  // React and react-dom alone are some 60 KB: a page with no script at all would not pass either.
  expect(total).toBeGreaterThan(30 * 1024);
  expect(total).toBeLessThanOrEqual(MAX_JS_BYTES);
});

describeApi(
  'the built patient page as served',
  (t) => {
    it('comes with its strict CSP and loads scripts and styles only from its own /patient-assets/', async () => {
      const res = await t.raw('/p/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toBe(patientCsp);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toMatch(/\bwss?:/);

      const html = await res.text();
      expect(html).toContain('<html lang="en-GB">');
      const scripts = attributes(html, 'script', 'src');
      const styles = attributes(html, 'link', 'href');
      expect(scripts.length).toBeGreaterThan(0);
      for (const url of [...scripts, ...styles]) expect(url).toMatch(/^\/patient-assets\/[\w.-]+$/);
      // No inline script or style (the CSP would refuse them), no script from another origin.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(html).not.toMatch(/<style[\s>]|\sstyle=/i);
      expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
      for (const url of scripts) {
        const asset = await t.raw(url, { headers: { 'accept-encoding': 'br' } });
        expect([url, asset.status]).toEqual([url, 200]);
        expect(asset.headers.get('content-encoding')).toBe('br');
      }
    });
  },
  () => ({ patientDir: dist }),
);
