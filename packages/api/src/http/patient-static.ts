import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Elysia } from 'elysia';
import { isFile, sendFile } from './static-files.ts';

/*
 * The patient page (packages/patient): its own bundle, served here and not by the console's catch-all,
 * under its own strict Content-Security-Policy. docs/decisions/patients.md, "The patient page".
 */

/**
 * The paths that are the patient page's (each prefix and everything under it gets its index.html):
 * `/p` the patient's orders, `/p/{orderId}` one order. A new patient page (e.g. `/signup`) adds its
 * prefix here and its route in packages/patient/src/router.ts.
 */
export const patientPagePrefixes = ['/p', '/signup'] as const;

/** Where the patient page's hashed files are (dist/patient-assets/), apart from the console's /assets/. */
export const PATIENT_ASSETS = 'patient-assets';

/**
 * The patient page's CSP: nothing but its own script, style sheet and API calls. No inline script or
 * style, no WebSocket, no third-party origin, no framing, no <base>. Judopay's hosted page is opened by
 * a top-level navigation (GET with its reference), which no CSP directive governs, so form-action stays
 * 'self'. The signature pad's canvas needs no img-src; `data:` images are allowed for the PNG it makes.
 */
export const patientCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const YEAR = 'public, max-age=31536000, immutable';

export type PatientStaticOptions = {
  /** Production (NODE_ENV=production): source maps are never served, even when a build left some. */
  production?: boolean;
};

type Set = { status?: number | string; headers: Record<string, string | number> };

/**
 * Serves the built patient page from `dir` (packages/patient/dist): index.html for every path under
 * {@link patientPagePrefixes}, revalidated on every load; the hashed files under /patient-assets/,
 * cached for a year (a missing one is a 404, never a page). Every answer carries {@link patientCsp}.
 */
export function patientStatic(dir: string | undefined, options: PatientStaticOptions = {}) {
  const index = dir ? join(dir, 'index.html') : undefined;
  const assets = dir ? join(dir, PATIENT_ASSETS) : undefined;

  const page = ({ request, set }: { request: Request; set: Set }) => {
    set.headers['content-security-policy'] = patientCsp;
    set.headers['cache-control'] = 'no-cache';
    if (!index || !existsSync(index)) {
      set.status = 503;
      set.headers['content-type'] = 'text/plain; charset=utf-8';
      return 'The patient page has not been built: run npm start';
    }
    return sendFile(index, request, set);
  };

  const asset = ({ request, set }: { request: Request; set: Set }) => {
    set.headers['content-security-policy'] = patientCsp;
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      path = '';
    }
    const name = path.slice(`/${PATIENT_ASSETS}/`.length);
    const hidden = name.endsWith('.br') || name.endsWith('.gz') || (options.production && name.endsWith('.map'));
    const file = assets ? normalize(join(assets, name)) : '';
    if (assets && name && !hidden && file.startsWith(assets + sep) && isFile(file)) {
      set.headers['cache-control'] = YEAR;
      return sendFile(file, request, set);
    }
    set.status = 404;
    set.headers['content-type'] = 'text/plain; charset=utf-8';
    return 'Not found';
  };

  const app = new Elysia({ name: 'patient-static' }).get(`/${PATIENT_ASSETS}/*`, asset);
  for (const prefix of patientPagePrefixes) app.get(prefix, page).get(`${prefix}/*`, page);
  return app;
}
