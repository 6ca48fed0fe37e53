import { shortUrlCodeMaxLength } from '@medlocker/core';
import { Elysia } from 'elysia';
import { createUrl, findLiveTarget, getUrl } from '../../areas/url/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { notFoundPage } from '../../http/console-static.ts';
import { rpcArea } from '../area.ts';

// Codes are base64url; anything else (or longer than any code) is answered without a query.
const CODE = new RegExp(`^[A-Za-z0-9_-]{1,${shortUrlCodeMaxLength}}$`);

/** The same page for an unknown, expired or malformed code (and for /u/ paths no route takes): it tells nothing. */
const notFound = () =>
  new Response(notFoundPage, {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });

/** `POST /api/url/*` and `GET /u/{code}`: short links in messages, redirected to their target. */
export const urlRoutes = (deps: AppDeps) =>
  new Elysia({ name: 'area:url' })
    .use(rpcArea(deps, 'url', { createUrl, getUrl }))
    .get('/u/:code', async ({ request }) => {
      // The raw path segment, so an odd or percent-encoded code never reaches a decoder that could throw.
      const code = new URL(request.url).pathname.slice('/u/'.length);
      if (!CODE.test(code)) return notFound();
      const target = await findLiveTarget(deps.db, code, deps.now());
      if (target === null) return notFound();
      return new Response(null, { status: 302, headers: { location: target, 'cache-control': 'no-store' } });
    });
