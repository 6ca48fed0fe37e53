import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { acceptedEncodings, consoleStatic } from './console-static.ts';

const page = '<!doctype html><title>MedLocker</title><script type="module" src="/assets/index-abc123.js"></script>';
const signInPage =
  '<!doctype html><title>MedLocker</title><script type="module" src="/assets/sign-in-abc123.js"></script>';
const script = `console.log(${JSON.stringify('sign in '.repeat(200))});`;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'console-static-'));
  mkdirSync(join(dir, 'assets'));
  const files: Record<string, string> = {
    'index.html': page,
    'sign-in.html': signInPage,
    'assets/index-abc123.js': script,
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  }
  writeFileSync(join(dir, 'assets/index-abc123.js.map'), '{"version":3}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}, production = false) =>
  consoleStatic(dir, { production }).handle(new Request(`http://medlocker.test${path}`, { headers }));
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe('console assets', () => {
  it('sends a hashed script brotli-compressed to a browser that accepts brotli, cached for a year', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toStartWith('text/javascript');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(await bytes(res)).toString()).toBe(script);
  });

  it('sends gzip to a client that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gz)).toString()).toBe(script);
    const plain = await get('/assets/index-abc123.js', { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(script);
  });

  it('sends the page compressed for console routes, revalidated on every load', async () => {
    for (const path of ['/', '/businesses/123/machines', '/authors', '/users/auth']) {
      const res = await get(path, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-type')).toStartWith('text/html');
      expect(brotliDecompressSync(await bytes(res)).toString()).toBe(page);
    }
  });

  it('sends the sign-in page, compressed and revalidated, for /auth and every path under it', async () => {
    for (const path of ['/auth', '/auth/login', '/auth/login?from=%2Fusers', '/auth/reset/begin', '/auth/nowhere']) {
      const res = await get(path, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-type')).toStartWith('text/html');
      expect(brotliDecompressSync(await bytes(res)).toString()).toBe(signInPage);
    }
  });

  it('serves neither page by its file name', async () => {
    for (const path of ['/index.html', '/sign-in.html']) {
      expect(brotliDecompressSync(await bytes(await get(path, { 'accept-encoding': 'br' }))).toString()).toBe(page);
    }
  });

  it('serves source maps in development but not in production', async () => {
    expect((await get('/assets/index-abc123.js.map')).status).toBe(200);
    const res = await get('/assets/index-abc123.js.map', {}, true);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('version');
  });

  it('answers 404 for an asset that is not there and never serves the compressed copies by name', async () => {
    expect((await get('/assets/index-old999.js')).status).toBe(404);
    expect((await get('/assets/index-abc123.js.br')).status).toBe(404);
    expect((await get('/index.html.gz')).status).toBe(404);
  });
});

describe('reserved paths', () => {
  it('answers a JSON 404 for unknown paths under the APIs, /integration/ included', async () => {
    for (const path of ['/integration/v1/orders', '/integration', '/api/nope', '/healthz/x', '/machine/x']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route' } });
    }
  });

  it("answers a patient's unknown /u/ link with a plain 404 page, not the console", async () => {
    const res = await get('/u/AbC123');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toStartWith('text/html');
    const text = await res.text();
    expect(text).toContain('Not found');
    expect(text).not.toContain('/assets/');
  });

  it("never answers the patient page's paths with the console (patient-static.ts serves them)", async () => {
    for (const path of ['/p', '/p/0190a1b2', '/patient-assets', '/patient-assets/index-x.js']) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).not.toContain('/assets/index-abc123.js');
    }
    // A console path that only starts like one is the console's.
    expect(await (await get('/pharmacy')).text()).toBe(page);
  });
});

describe('Accept-Encoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(acceptedEncodings('gzip, deflate, br')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings('gzip;q=1, br;q=0')).toEqual(['gzip']);
    expect(acceptedEncodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings('identity')).toEqual([]);
    expect(acceptedEncodings(null)).toEqual([]);
  });
});
