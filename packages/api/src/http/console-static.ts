import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Elysia } from 'elysia';
import { PATIENT_ASSETS, patientPagePrefixes } from './patient-static.ts';
import { isFile, sendFile } from './static-files.ts';

export { acceptedEncodings } from './static-files.ts';

/** Paths of the APIs and hubs: an unknown one is a JSON 404, never the console's page. */
const API_PATHS = /^\/(api|integration|ws|machine|healthz|readyz|files)(\/|$)/;
/** Patients' short links (/u/{code}): an unknown one is a plain page a phone's browser shows as it is. */
const PATIENT_LINKS = /^\/u(\/|$)/;
/**
 * The patient page's paths (patient-static.ts serves them): never the console, even when a path there
 * reaches this catch-all (the patient page not built, or a path patient-static does not take).
 */
const PATIENT_PAGE = new RegExp(`^(${[...patientPagePrefixes, `/${PATIENT_ASSETS}`].join('|')})(/|$)`);

/** The sign-in pages: a page of their own (sign-in.html), without the console's app (see the console's build.ts). */
const SIGN_IN_PATHS = /^\/auth(\/|$)/;

const YEAR = 'public, max-age=31536000, immutable';

/** The page an unknown or expired short link shows (areas/url answers /u/{code} with it too). */
export const notFoundPage = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head>
<body><h1>Not found</h1><p>This link is not valid. Check the message it came in, or contact your pharmacy.</p></body></html>
`;

export type ConsoleStaticOptions = {
  /** Production (NODE_ENV=production): source maps are never served, even when a build left some. */
  production?: boolean;
};

/**
 * Serves the built console. Files under `dir` as they are, or their brotli/gzip copy made at build
 * time (`name.br`, `name.gz`) when the client accepts it (`Vary: Accept-Encoding`); hashed files under
 * /assets/ are cached for a year, the pages are revalidated every time. The sign-in pages (/auth and
 * /auth/*) get sign-in.html; console routes (any other path) get index.html so the console's router
 * takes them (deep links, reloads). API paths answer a
 * JSON 404, /u/ links and the patient page's paths (when they reach here) a plain 404 page, a missing
 * asset a 404.
 */
export function consoleStatic(dir: string | undefined, options: ConsoleStaticOptions = {}) {
  const app = new Elysia({ name: 'console-static' });
  const index = dir ? join(dir, 'index.html') : undefined;
  const signIn = dir ? join(dir, 'sign-in.html') : undefined;

  return app.get('/*', ({ request, set }) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      set.status = 400;
      return { error: { code: 'BAD_REQUEST', message: 'The path is not valid' } };
    }
    if (API_PATHS.test(path)) {
      set.status = 404;
      return { error: { code: 'NOT_FOUND', message: 'No such route' } };
    }
    if (PATIENT_LINKS.test(path) || PATIENT_PAGE.test(path)) {
      set.status = 404;
      set.headers['content-type'] = 'text/html; charset=utf-8';
      set.headers['cache-control'] = 'no-cache';
      return notFoundPage;
    }
    if (!dir || !index || !existsSync(index)) {
      set.status = 503;
      return { error: { code: 'UNAVAILABLE', message: 'The console has not been built: run npm start' } };
    }
    const hidden = path.endsWith('.br') || path.endsWith('.gz') || (options.production && path.endsWith('.map'));
    const file = normalize(join(dir, path));
    const page = file === index || file === signIn;
    if (!hidden && file.startsWith(dir + sep) && path !== '/' && !page && isFile(file)) {
      set.headers['cache-control'] = path.startsWith('/assets/') ? YEAR : 'no-cache';
      return sendFile(file, request, set);
    }
    // A file that is not there (an old asset after a deploy, a source map in production): a 404, not the page.
    if (hidden || path.startsWith('/assets/') || /\.(js|css|map|br|gz)$/.test(path)) {
      set.status = 404;
      set.headers['content-type'] = 'text/plain; charset=utf-8';
      return 'Not found';
    }
    set.headers['cache-control'] = 'no-cache';
    return sendFile(SIGN_IN_PATHS.test(path) && signIn && isFile(signIn) ? signIn : index, request, set);
  });
}
