import { afterAll, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { describeApi } from '../testing/api.ts';
import { patientCsp } from './patient-static.ts';
import { securityHeaders } from './security.ts';

/** Two built front ends in temporary folders, told apart by their titles. */
const consolePage = '<!doctype html><title>Console</title><script type="module" src="/assets/index-c0.js"></script>';
const patientPage =
  '<!doctype html><title>Patient</title><script type="module" src="/patient-assets/index-p1.js"></script>';
const script = `console.log(${JSON.stringify('patient '.repeat(100))});`;

function built(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'patient-static-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const consoleDir = built({ 'index.html': consolePage, 'assets/index-c0.js': 'console.log(1)' });
const patientDir = built({
  'index.html': patientPage,
  'patient-assets/index-p1.js': script,
  'patient-assets/index-p1.js.map': '{"version":3}',
});
writeFileSync(join(patientDir, 'patient-assets/index-p1.js.br'), brotliCompressSync(script));
afterAll(() => {
  rmSync(consoleDir, { recursive: true, force: true });
  rmSync(patientDir, { recursive: true, force: true });
});

describeApi(
  'serving the patient page',
  (t) => {
    it('answers /p and /p/{orderId} with the patient page under its own strict CSP, revalidated on every load', async () => {
      for (const path of ['/p', '/p/', '/p/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '/p/abc?ReceiptId=1&Reference=x']) {
        const res = await t.raw(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect(await res.text()).toBe(patientPage);
        expect(res.headers.get('content-type')).toStartWith('text/html');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('content-security-policy')).toBe(patientCsp);
        // The other security headers every answer carries stay.
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      }
    });

    it('keeps the patient page’s CSP strict: nothing inline, no WebSocket, no other origin, no framing', () => {
      const directives = Object.fromEntries(
        patientCsp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      expect(directives['default-src']).toEqual(["'none'"]);
      expect(directives['script-src']).toEqual(["'self'"]);
      expect(directives['style-src']).toEqual(["'self'"]);
      expect(directives['connect-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['base-uri']).toEqual(["'none'"]);
      expect(patientCsp).not.toContain('unsafe');
      expect(patientCsp).not.toMatch(/\bwss?:/);
      expect(patientCsp).not.toMatch(/https?:/);
    });

    it('sends the patient page’s hashed files compressed, cached for a year, under its CSP', async () => {
      const res = await t.raw('/patient-assets/index-p1.js', { headers: { 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe(patientCsp);
      expect(brotliDecompressSync(new Uint8Array(await res.arrayBuffer())).toString()).toBe(script);
    });

    it('answers an unknown patient asset with 404, never a page', async () => {
      for (const path of [
        '/patient-assets/index-old.js',
        '/patient-assets/',
        '/patient-assets/index-p1.js.br',
        '/patient-assets/..%2findex.html',
      ]) {
        const res = await t.raw(path);
        expect([path, res.status]).toEqual([path, 404]);
        const text = await res.text();
        expect(text).not.toContain('<title>');
      }
    });

    it('never answers a patient path with the console, and keeps the console’s own serving', async () => {
      for (const path of ['/p/abc/def', '/p/x/y/z']) expect(await (await t.raw(path)).text()).toBe(patientPage);
      // Console paths that merely start with the same letters stay the console's.
      for (const path of ['/', '/pharmacy', '/patients', '/businesses/1/patients/import']) {
        const res = await t.raw(path);
        expect([path, await res.text()]).toEqual([path, consolePage]);
        expect(res.headers.get('content-security-policy')).toBe(securityHeaders['content-security-policy'] ?? '');
      }
      expect((await t.raw('/assets/index-c0.js')).status).toBe(200);
      expect((await t.raw('/assets/index-p1.js')).status).toBe(404);
    });
  },
  () => ({ consoleDir, patientDir }),
);

describeApi(
  'the patient page before it is built',
  (t) => {
    it('answers its paths 503, not the console, and says how to build it', async () => {
      for (const path of ['/p', '/p/abc']) {
        const res = await t.raw(path);
        expect([path, res.status]).toEqual([path, 503]);
        expect(await res.text()).toBe('The patient page has not been built: run npm start');
      }
      const asset = await t.raw('/patient-assets/index-p1.js');
      expect(asset.status).toBe(404);
      expect(await asset.text()).not.toContain('Console');
    });
  },
  () => ({ consoleDir, patientDir: undefined }),
);

describeApi(
  'the patient page in production',
  (t) => {
    it('never serves its source maps', async () => {
      expect((await t.raw('/patient-assets/index-p1.js.map')).status).toBe(404);
      expect((await t.raw('/patient-assets/index-p1.js')).status).toBe(200);
    });
  },
  () => ({ consoleDir, patientDir }),
  {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    PUBLIC_URL: 'https://medlocker.test',
    SMTP_URL: 'smtp://mail.example.test:587',
  },
);
