import { AppError } from '@medlocker/core';
import { Elysia } from 'elysia';
import {
  activateDeviceAuth,
  exchangeToken,
  startDeviceAuth,
  TokenRefusal,
  type TokenRequest,
} from '../../areas/device-auth/index.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { type RequestMeta, requestMeta } from '../../http/request-meta.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { reserveToken } from '../../rate-limits/repository.ts';
import { originOf } from '../actor-of.ts';
import { rpcArea } from '../area.ts';

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

/** A token request's fields, named on the wire as RFC 6749 and RFC 8628 name them. */
const tokenRequestOf = ({ grant_type, device_code, refresh_token }: Record<string, unknown>): TokenRequest => ({
  grantType: grant_type,
  deviceCode: device_code,
  refreshToken: refresh_token,
});

/** A locker that is not paired yet: nobody, calling from a locker. */
const lockerCaller = (meta: RequestMeta): Actor => ({ kind: 'anonymous', origin: originOf(meta, 'locker') });

/** How many device codes one address may ask for: a burst of `perAddress`, refilled over `perMs`. */
export const deviceCodeLimit = { perAddress: 30, perMs: 10 * 60 * 1000 };

/**
 * Locker pairing over plain HTTP (docs/LOCKER-PROTOCOL.md): `POST /machine/device/code` and
 * `POST /machine/token`, outside /api because lockers are not browsers (no Origin, no session).
 */
export const deviceAuthRoutes = (deps: AppDeps) => {
  // Anyone may ask for a pairing code and each one is a row: at most 30 codes per 10 minutes from one
  // address (a pharmacy pairs a locker or two; a locker asks again only when its code expired). The
  // bucket is in the database (rate_buckets), shared by every api process.
  const codes = { capacity: deviceCodeLimit.perAddress, perMs: deviceCodeLimit.perMs };
  const app = new Elysia({ name: 'machine:device-auth' })
    .post(
      '/machine/device/code',
      async ({ request, server, set }) => {
        set.headers['cache-control'] = 'no-store';
        const meta = requestMeta(request, server, deps.config.trustProxy);
        const retryAfter = await reserveToken(deps.db, `device-code:${addressKey(meta.ip)}`, codes, deps.now());
        if (retryAfter !== null) {
          throw new AppError(
            'RATE_LIMITED',
            `Too many pairing codes asked for from this address. Try again in ${retryAfter} seconds.`,
            undefined,
            retryAfter,
          );
        }
        const origin = deps.config.publicUrls[0] ?? new URL(request.url).origin;
        return startDeviceAuth(deps, lockerCaller(meta), { verificationUri: `${origin}/businesses` });
      },
      { parse: 'none' },
    )
    .post(
      '/machine/token',
      async ({ request, server, set }) => {
        set.headers['cache-control'] = 'no-store';
        const caller = lockerCaller(requestMeta(request, server, deps.config.trustProxy));
        try {
          return await exchangeToken(deps, caller, tokenRequestOf(await formOrJson(request)));
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
