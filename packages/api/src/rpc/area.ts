import {
  AppError,
  type AreaName,
  type Contract,
  contract,
  fieldErrorsOf,
  isPublic,
  type Method,
  type OutputOf,
  type ParsedInputOf,
  unstorableJson,
  validationMessages,
} from '@medlocker/core';
import { type } from 'arktype';
import { Elysia } from 'elysia';
import { callerOf, checkCaller, enforceScope } from '../access/enforce.ts';
import type { Actor, Principal } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { requestMeta } from '../http/request-meta.ts';
import { patientPrincipalOf } from '../sessions/patient-sessions.ts';
import { mayCallWhilePending } from '../sessions/pending.ts';
import { authMessages } from '../sessions/policy.ts';
import { actorOf, originOf } from './actor-of.ts';
import type { CookieOptions, HttpExchange } from './context.ts';

/** Who may be calling a method: anyone on a public one, else the kinds of actor it lists. */
type ActorFor<M extends Method> = 'anonymous' extends M['access']['actors'][number]
  ? Actor
  : Extract<Actor, { kind: M['access']['actors'][number] }>;

/**
 * The implementation of every method of an area, typed by core's contract: a service function
 * `(deps, actor, input)` as it is, or a controller adapting one when it needs the HTTP exchange
 * (cookies, headers), given as the fourth argument.
 */
export type Handlers<A extends Record<string, Method>> = {
  [K in keyof A]: (
    deps: AppDeps,
    actor: ActorFor<A[K]>,
    input: ParsedInputOf<A[K]>,
    http: HttpExchange,
  ) => Promise<OutputOf<A[K]>> | OutputOf<A[K]>;
};

const mayBePatient = (def: Method) => def.access.actors.includes('patient');

const MAX_BODY_BYTES = 1_000_000; // a logo data URL (256 KB) is the largest thing the console sends
const UTF8 = new TextDecoder();

/** What a service may do with the HTTP exchange: its cookies and headers (sessions, downloads). */
function httpExchange(request: Request, set: { headers: Record<string, unknown> }, secure: boolean): HttpExchange {
  const cookies: string[] = [];
  return {
    secure,
    request,
    setCookie: (cookieName, value, options) => {
      cookies.push(serializeCookie(cookieName, value, secure, options));
      set.headers['set-cookie'] = cookies as unknown as string;
    },
    clearCookie: (cookieName, options) => {
      cookies.push(serializeCookie(cookieName, '', secure, { ...options, maxAgeSeconds: 0 }));
      set.headers['set-cookie'] = cookies as unknown as string;
    },
    setHeader: (headerName, value) => {
      set.headers[headerName.toLowerCase()] = value;
    },
  };
}

/**
 * One Elysia instance per area: `POST /api/{area}/{method}` for each method given, with
 * the body checked as JSON, the caller's access checked, the input validated (and normalised) by
 * core's schema, and — outside production — the output checked against the contract too.
 */
export function rpcArea<N extends AreaName>(deps: AppDeps, name: N, handlers: Partial<Handlers<Contract[N]>>) {
  const area = contract[name] as Record<string, Method>;
  // An area's methods may be served from more than one module (auth's device pairing lives with the
  // machines); app.test.ts checks that every method of the contract is served somewhere. `handlers` may
  // be an area's whole index: only what the contract names is served.
  const served = Object.keys(handlers).filter((method) => Object.hasOwn(area, method));
  const app = new Elysia({ prefix: `/api/${name}`, name: `area:${name}:${served.sort().join(',')}` });
  /**
   * A timed-out session answers 401 where one is needed; on a public method (login) it is nobody. A
   * session that has proved the password only reaches the few methods of its step (sessions/pending.ts):
   * elsewhere it is nobody on a public method, a 401 while the second factor is awaited, and a 403 telling
   * the user to set one up while policy wants one.
   */
  const principalFor = async (def: Method, method: string, request: Request, ip: string | null) => {
    let principal: Principal | null;
    try {
      principal = await deps.auth.principalOf(request, { ip, now: deps.now(), allowPending: true });
    } catch (error) {
      if (isPublic(def.access) && error instanceof AppError && error.code === 'UNAUTHENTICATED') return null;
      throw error;
    }
    if (!principal?.pending || mayCallWhilePending(principal.pending, name, method)) return principal;
    if (isPublic(def.access)) return null;
    if (principal.pending === 'setup') throw new AppError('FORBIDDEN', authMessages.setUpSecondFactor);
    throw new AppError('UNAUTHENTICATED', authMessages.notLoggedIn);
  };
  for (const [method, def] of Object.entries(area)) {
    const handler = (
      handlers as Record<
        string,
        ((deps: AppDeps, actor: Actor, input: unknown, http: HttpExchange) => unknown) | undefined
      >
    )[method];
    if (!handler) continue;
    app.post(
      `/${method}`,
      async ({ request, set, server }) => {
        const meta = requestMeta(request, server, deps.config.trustProxy);
        const body = await readJsonBody(request);
        // A method for patients is called with the patient cookie when the request has one (a pharmacist
        // opening a patient's link in the browser they use for the console is the patient there); other
        // methods never read it, so a patient session reaches nothing else.
        const patient = mayBePatient(def) ? await patientPrincipalOf(deps.db, request, deps.now()) : null;
        const principal = patient ? null : await principalFor(def, method, request, meta.ip);
        const actor: Actor = patient
          ? {
              kind: 'patient',
              patientId: patient.patientId,
              businessId: patient.businessId,
              origin: originOf(meta, 'portal'),
            }
          : actorOf(principal, request, meta);
        // Access as the contract declares it (access/enforce.ts): who may call, then what they reach.
        const caller = callerOf(patient ? actor : principal);
        checkCaller(def.access, caller);
        const input = def.input(body ?? {});
        if (input instanceof type.errors) {
          throw new AppError('VALIDATION', input.summary, fieldErrorsOf(input));
        }
        await enforceScope(deps.db, def.access, caller, input);
        const http = httpExchange(request, set, meta.secure);
        const result = await handler(deps, actor, input, http);
        if (!deps.config.production) {
          const checked = def.output(result);
          if (checked instanceof type.errors) {
            deps.logger.error('output does not match the contract', { area: name, method, problem: checked.summary });
            throw new AppError('INTERNAL', `The server answered ${name}/${method} outside its contract`);
          }
        }
        return result;
      },
      { parse: 'none' },
    );
  }
  return app;
}

/**
 * The body's bytes, read as a stream and refused as soon as they pass `max`: a chunked body with no
 * Content-Length is never buffered whole (Bun would take up to 128 MB) before it is found too large.
 */
export async function readCapped(request: Request, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length);
}

/** A JSON object body of at most 1 MB: anything else is a 400, 413 or 415 (shared with the integration API). */
export async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
  }
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large (at most 1 MB)');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // A declared length frames the body (the server reads no more than it): read at once, the limit
  // checked again on what came. Without one (chunked), counted as it streams in (readCapped).
  const bytes =
    request.headers.has('content-length') && !request.headers.has('transfer-encoding')
      ? new Uint8Array(await request.arrayBuffer())
      : await readCapped(request, MAX_BODY_BYTES, tooLarge);
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  const text = UTF8.decode(bytes);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'The request body is not valid JSON');
  }
  // Every method takes an object: an array, null, a number or a string is refused, never read as {}.
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const message = 'The request body must be a JSON object';
    throw new AppError('VALIDATION', message, [
      { path: '', id: 'INVALID_FORMAT', message: validationMessages.INVALID_FORMAT },
    ]);
  }
  // Text PostgreSQL cannot store (U+0000, an unpaired surrogate) and nesting too deep to walk safely
  // are refused here, for every method, rather than failing in the database or the validator (500).
  const problem = unstorableJson(body, text);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  return body;
}

export function serializeCookie(name: string, value: string, secure: boolean, options: CookieOptions = {}): string {
  const sameSite = options.sameSite === 'lax' ? 'Lax' : 'Strict';
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', `SameSite=${sameSite}`];
  if (secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  if (options.expires !== undefined) parts.push(`Expires=${new Date(options.expires).toUTCString()}`);
  return parts.join('; ');
}
