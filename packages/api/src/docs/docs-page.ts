import { dirname, join } from 'node:path';
import { Elysia } from 'elysia';
import { buildOpenApi } from './openapi.ts';

// swagger-ui-dist ships the browsable page's assets; they are served from here, so the page works offline.
const swaggerDir = dirname(Bun.resolveSync('swagger-ui-dist/package.json', import.meta.dir));
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

const page = (productName: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API · ${productName}</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** `/api/openapi.json` and the browsable page at `/api/docs`. */
export function docsRoutes(productName: string) {
  // Built on the first request, not at start: the JSON Schemas of every method are megabytes of memory
  // that most processes never need (docs/PERFORMANCE.md, memory).
  let doc: ReturnType<typeof buildOpenApi> | undefined;
  return new Elysia({ name: 'docs' })
    .get('/api/openapi.json', () => {
      doc ??= buildOpenApi(productName);
      return doc;
    })
    .get(
      '/api/docs',
      () => new Response(page(productName), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    )
    .get('/api/docs/init.js', () => new Response(init, { headers: { 'content-type': 'text/javascript' } }))
    .get('/api/docs/:asset', ({ params, set }) => {
      if (!ASSETS.has(params.asset)) {
        set.status = 404;
        return { error: { code: 'NOT_FOUND', message: 'No such file' } };
      }
      return Bun.file(join(swaggerDir, params.asset));
    });
}
