import { AppError, fieldErrorsOf, IntegrationTokenRequest, unstorableJson } from '@medlocker/core';
import { type } from 'arktype';
import { Elysia } from 'elysia';
import type { Origin } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { type RequestMeta, requestMeta } from '../http/request-meta.ts';
import { originOf } from '../rpc/actor-of.ts';
import { readCapped, readJsonBody } from '../rpc/area.ts';
import { beginIdempotent, type Idempotent } from './idempotency.ts';
import { buildIntegrationOpenApi } from './openapi.ts';
import { PROBLEM_TYPE, ProblemError, problemOf, problemResponse } from './problem.ts';
import { integrationRoutesTable } from './routes.ts';
import { actorOfToken, countClientRequest, issueToken, RATE_WINDOW_MS } from './service.ts';

/*
 * `/integration/v1`: the REST API a pharmacy's record system calls with a bearer token from
 * `POST /oauth/token`. Each request is counted in the client's hourly window before any work, a POST
 * with an Idempotency-Key answers its first answer again, and every error is an RFC 9457 problem.
 */

export const INTEGRATION_PREFIX = '/integration/v1';

const MAX_BODY_BYTES = 1_000_000;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The request's body as text, at most 1 MB. */
async function bodyText(request: Request): Promise<string> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large (at most 1 MB)');
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  return new TextDecoder().decode(await readCapped(request, MAX_BODY_BYTES, tooLarge));
}

/** A JSON object body (rpc/area.ts's rules: 1 MB, an object, storable text). */
const jsonBody = async (request: Request) => (await readJsonBody(request)) as Record<string, unknown>;

/**
 * Fields from a query string, a form or HTTP Basic: text PostgreSQL cannot store (U+0000) is a 400 here,
 * as readJsonBody makes it for a JSON body, never the database's 500.
 */
function storable<T>(fields: T): T {
  const problem = unstorableJson(fields);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  return fields;
}

/** Input checked by its schema: a 400 with each field's validation id otherwise. */
function checked(schema: type.Any, value: unknown): unknown {
  const out = schema(value);
  if (out instanceof type.errors) throw new AppError('VALIDATION', out.summary, fieldErrorsOf(out));
  return out;
}

const bearerOf = (request: Request): string | null => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1] ?? null;
};

/** RFC 6749 §2.3.1: the client id and secret in HTTP Basic (form-encoded, then base64), or in the body. */
function basicCredentials(request: Request): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
    };
  } catch {
    return null;
  }
}

/** The token request's fields, form-encoded (RFC 6749) or JSON. */
async function tokenFields(request: Request): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    return storable(Object.fromEntries(new URLSearchParams(await bodyText(request))));
  }
  return jsonBody(request);
}

/** RFC 6749 §5.2's error fields beside the problem's. */
function oauthError(deps: AppDeps, error: unknown, meta: RequestMeta, instance: string, basic: boolean): Response {
  const p = problemOf(error, 'UNKNOWN', deps.logger, meta.requestId, instance);
  const oauth =
    p.status === 401
      ? 'invalid_client'
      : p.status === 400 && p.problem.errors?.some((e) => e.path === 'grant_type')
        ? 'unsupported_grant_type'
        : p.status === 429
          ? 'slow_down'
          : 'invalid_request';
  const headers: Record<string, string> = { ...p.headers, 'cache-control': 'no-store' };
  if (p.status === 401)
    headers['www-authenticate'] = basic ? 'Basic realm="integration"' : 'Bearer realm="integration"';
  return json(p.status, { ...p.problem, error: oauth, error_description: p.problem.detail }, headers);
}

const PARAM = /^[A-Za-z0-9._-]{1,64}$/;

/** `POST /oauth/token`: client credentials (Basic, or form fields) for a one-hour bearer token. */
function tokenRoute(deps: AppDeps) {
  return async ({ request, server }: { request: Request; server: unknown }) => {
    const meta = requestMeta(request, server as never, deps.config.trustProxy);
    const instance = new URL(request.url).pathname;
    const basic = basicCredentials(request);
    try {
      const fields = checked(
        IntegrationTokenRequest,
        await tokenFields(request),
      ) as typeof IntegrationTokenRequest.infer;
      // RFC 6749's form fields, when the credentials are not in the Basic header.
      const { client_id: formId, client_secret: formSecret } = fields;
      const { clientId, clientSecret } = storable({
        clientId: basic?.clientId ?? formId,
        clientSecret: basic?.clientSecret ?? formSecret,
      });
      if (!clientId || !clientSecret) throw new AppError('UNAUTHENTICATED', 'Send the client id and secret');
      const token = await issueToken(deps, originOf(meta, 'integration'), { clientId, clientSecret });
      return json(200, token, { 'cache-control': 'no-store', pragma: 'no-cache' });
    } catch (error) {
      return oauthError(deps, error, meta, instance, basic !== null);
    }
  };
}

/** The rate-limit headers of the client's window after this request was counted. */
async function countedRequest(deps: AppDeps, actor: Awaited<ReturnType<typeof actorOfToken>>) {
  const window = await countClientRequest(deps, actor);
  return {
    'ratelimit-limit': String(window.rateLimit),
    'ratelimit-remaining': String(Math.max(0, window.rateLimit - window.requestsMade)),
    'ratelimit-reset': String(Math.max(0, Math.ceil((window.periodStart + RATE_WINDOW_MS - deps.now()) / 1000))),
  };
}

type Route = (typeof integrationRoutesTable)[number];

/**
 * One resource route: the bearer token's client, its hourly window counted, the path's parameters, the
 * body (a POST: claimed under its Idempotency-Key, a replay answered as stored) or the query, checked by
 * the route's schema, then the route's service; any failure as an RFC 9457 problem.
 */
function resourceRoute(deps: AppDeps, route: Route) {
  return async ({ request, server, params }: { request: Request; server: unknown; params: unknown }) => {
    const meta = requestMeta(request, server as never, deps.config.trustProxy);
    const url = new URL(request.url);
    const origin: Origin = originOf(meta, 'integration');
    let rateHeaders: Record<string, string> = {};
    let idempotent: Idempotent | null = null;
    try {
      const actor = await actorOfToken(deps, bearerOf(request), origin);
      rateHeaders = await countedRequest(deps, actor);
      const pathParams = (params ?? {}) as Record<string, string>;
      for (const value of Object.values(pathParams)) {
        if (!PARAM.test(value)) throw new AppError('NOT_FOUND', 'No such resource');
      }
      let input: Record<string, unknown>;
      if (route.method === 'POST') {
        const body = await jsonBody(request);
        idempotent = await beginIdempotent(deps, actor, request, url.pathname, body);
        if (idempotent?.replay) {
          return json(idempotent.replay.status, idempotent.replay.body, {
            ...rateHeaders,
            'idempotent-replayed': 'true',
            ...(idempotent.replay.status >= 400 ? { 'content-type': PROBLEM_TYPE } : {}),
          });
        }
        input = { ...(checked(route.body ?? type({}), body) as object), ...pathParams };
      } else {
        const query = storable(Object.fromEntries(url.searchParams));
        input = { ...(route.query ? (checked(route.query, query) as object) : {}), ...pathParams };
      }
      const answer = await route.run(deps, actor, input as never);
      await idempotent?.finish(answer.status, answer.body);
      return json(answer.status, answer.body, rateHeaders);
    } catch (error) {
      const p = problemOf(error, 'UNKNOWN', deps.logger, meta.requestId, url.pathname);
      if (idempotent) {
        if (p.status < 500 && !(error instanceof ProblemError)) await idempotent.finish(p.status, p.problem);
        else await idempotent.abandon();
      }
      return problemResponse(p, rateHeaders);
    }
  };
}

/** `/integration/v1`: the OpenAPI document, the token endpoint, every resource route, and 404 problems. */
export function integrationApiRoutes(deps: AppDeps) {
  const app = new Elysia({ prefix: INTEGRATION_PREFIX, name: 'integration-api' });
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', () => {
    document ??= buildIntegrationOpenApi(deps.config.productName);
    return json(200, document);
  });
  app.post('/oauth/token', tokenRoute(deps), { parse: 'none' });
  for (const route of integrationRoutesTable) {
    const handle = resourceRoute(deps, route);
    if (route.method === 'GET') app.get(route.path, handle, { parse: 'none' });
    else app.post(route.path, handle, { parse: 'none' });
  }
  // Anything else under the prefix is a 404 problem (app.ts's onError), never the console's catch-all.
  // The prefix itself too ('/*' does not match it): else the console's fallback answers its own 404.
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const path of ['', '/*']) {
      app.route(
        method,
        path,
        () => {
          throw new AppError('NOT_FOUND', 'No such route');
        },
        { parse: 'none' },
      );
    }
  }
  return app;
}
