import { AppError } from '@medlocker/core';
import { Elysia } from 'elysia';
import { readLogo } from '../areas/businesses/index.ts';
import type { AppDeps } from '../context/deps.ts';

/**
 * `GET /files/logos/<name>`: the stored bytes with their sniffed type and nosniff. Logos are branding
 * shown wherever the business appears, behind unguessable names, so no session is asked for.
 */
export const logoFiles = (deps: AppDeps) =>
  new Elysia({ name: 'files:logos' }).get('/files/logos/:name', async ({ params, set }) => {
    const logo = await readLogo(deps, params.name);
    if (!logo) throw new AppError('NOT_FOUND', 'No such logo');
    set.headers['content-type'] = logo.contentType;
    set.headers['x-content-type-options'] = 'nosniff';
    set.headers['cache-control'] = 'public, max-age=31536000, immutable';
    set.headers['content-security-policy'] = "default-src 'none'";
    return new Response(logo.bytes, { headers: set.headers as Record<string, string> });
  });
