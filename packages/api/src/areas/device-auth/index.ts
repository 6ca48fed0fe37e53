import { Elysia } from 'elysia';
import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { activateDeviceAuth, exchangeToken, startDeviceAuth, TokenRefusal } from './service.ts';

/** Reads a token-endpoint body: form-encoded as OAuth clients send it, or JSON. */
async function formOrJson(request: Request): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('content-type') ?? '';
  const text = (await request.text()).slice(0, 10_000);
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Locker pairing over plain HTTP (docs/LOCKER-PROTOCOL.md): `POST /machine/device/code` and
 * `POST /machine/token`, outside /api because lockers are not browsers (no Origin, no session).
 */
export const deviceAuthRoutes = (deps: AppDeps) => {
  const app = new Elysia({ name: 'machine:device-auth' })
    .post(
      '/machine/device/code',
      async ({ request, set }) => {
        set.headers['cache-control'] = 'no-store';
        const origin = deps.config.publicUrls[0] ?? new URL(request.url).origin;
        return startDeviceAuth(deps, `${origin}/businesses`);
      },
      { parse: 'none' },
    )
    .post(
      '/machine/token',
      async ({ request, set }) => {
        set.headers['cache-control'] = 'no-store';
        try {
          return await exchangeToken(deps, await formOrJson(request));
        } catch (error) {
          if (!(error instanceof TokenRefusal)) throw error;
          set.status = 400;
          return { error: error.error, error_description: error.description };
        }
      },
      { parse: 'none' },
    );
  return app.use(rpcArea(deps, 'auth', { activateDeviceAuth }));
};
