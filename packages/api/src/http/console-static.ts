import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Elysia } from 'elysia';

const RESERVED = /^\/(api|ws|machine|healthz|readyz|files)(\/|$)/;

/**
 * Serves the built console: files that exist under `dir`, and index.html for every other path so
 * the console's router can take it (deep links, reloads). Hashed assets are cached for a year.
 */
export function consoleStatic(dir: string | undefined) {
  const app = new Elysia({ name: 'console-static' });
  const index = dir ? join(dir, 'index.html') : undefined;
  return app.get('/*', ({ request, set }) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    if (RESERVED.test(path)) {
      set.status = 404;
      return { error: { code: 'NOT_FOUND', message: 'No such route' } };
    }
    if (!dir || !index || !existsSync(index)) {
      set.status = 503;
      return { error: { code: 'UNAVAILABLE', message: 'The console has not been built: run npm start' } };
    }
    const file = normalize(join(dir, path));
    if (file.startsWith(dir + sep) && path !== '/' && existsSync(file) && Bun.file(file).size > 0) {
      if (path.startsWith('/assets/')) set.headers['cache-control'] = 'public, max-age=31536000, immutable';
      return Bun.file(file);
    }
    set.headers['cache-control'] = 'no-cache';
    return Bun.file(index);
  });
}
