import type { ErrorCode, FieldError } from '../errors/app-error.ts';
import type { InputOf, Method, OutputOf } from './define.ts';
import type { AreaName, Contract } from './index.ts';

/**
 * The one typed RPC client of the API (console, cli and e2e helpers): `client.call('users', 'getUser',
 * { id })` posts JSON to `{baseUrl}/api/users/getUser` and resolves with the method's output type from
 * the contract. It takes the fetch function it uses, so core stays free of I/O: the console passes the
 * browser's fetch with its cookie, the cli a Bearer token, the e2e harness Playwright's request context.
 */

export type MethodName<A extends AreaName> = keyof Contract[A] & string;
type MethodDef<A extends AreaName, M extends MethodName<A>> = Contract[A][M] extends Method ? Contract[A][M] : never;
export type RpcInput<A extends AreaName, M extends MethodName<A>> = InputOf<MethodDef<A, M>>;
export type RpcOutput<A extends AreaName, M extends MethodName<A>> = OutputOf<MethodDef<A, M>>;

/** Codes the server sends, plus the two the client makes up for transport failures. */
export type ApiErrorCode = ErrorCode | 'UNREACHABLE' | 'UNEXPECTED_STATUS' | (string & {});

/** A refused or failed call: the HTTP status and the `{ error: { code, message, details } }` body. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
  }

  /** Field path → message, for a form's per-field errors. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const d of this.details) if (d.path && !(d.path in out)) out[d.path] = d.message;
    return out;
  }

  /** The messages not tied to a field, or the error's own message when there are none. */
  get formMessage(): string {
    const general = this.details.filter((d) => !d.path).map((d) => d.message);
    return general.length > 0 ? general.join('. ') : this.message;
  }
}

/** SPEC §8: the server could not be reached at all (refused, DNS, timeout, a proxy's 502/504). */
export class UnreachableError extends ApiError {
  override name = 'UnreachableError';
  constructor(
    readonly url: string,
    message: string,
    status = 0,
  ) {
    super(status, 'UNREACHABLE', message);
  }
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type RpcClientOptions = {
  /** e.g. http://localhost:3000, without a trailing slash; '' for the console's own origin. */
  baseUrl?: string;
  /** Called for every request; read on each call so tests may replace the global fetch. */
  fetch?: FetchLike;
  /** Extra headers per call, e.g. `Authorization: Bearer …`. */
  headers?: () => Record<string, string>;
  credentials?: RequestCredentials;
  /** Gives up (as unreachable) after this long; none by default. */
  timeoutMs?: number;
  /** The sentence for an unreachable server (SPEC §8, with the product's name). */
  unreachableMessage?: () => string;
  /** Told of every error answer before it is thrown (the console's session listens for 401/403). */
  onError?: (error: ApiError, call: { area: string; method: string }) => void;
};

export type CallOptions = { signal?: AbortSignal };

/** What follows a method's name in a call: its input (optional when it needs none) and the call's options. */
export type RpcArgs<A extends AreaName, M extends MethodName<A>> =
  Record<never, never> extends RpcInput<A, M>
    ? [input?: RpcInput<A, M>, options?: CallOptions]
    : [input: RpcInput<A, M>, options?: CallOptions];
export type RawResult = { status: number; body: unknown; headers: Headers };

export function createRpcClient(options: RpcClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const unreachable = options.unreachableMessage ?? (() => 'The MedLocker server could not be reached');

  /** Any method by name; 2xx answers are returned with their status and headers, the rest thrown. */
  async function raw(area: string, method: string, input?: unknown, call: CallOptions = {}): Promise<RawResult> {
    const url = `${baseUrl}/api/${area}/${method}`;
    const signals = [call.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let response: Response;
    try {
      const doFetch = options.fetch ?? ((u: string, i: RequestInit) => globalThis.fetch(u, i));
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers?.() },
        body: JSON.stringify(input ?? {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        ...(signals.length === 1
          ? { signal: signals[0] }
          : signals.length > 1
            ? { signal: AbortSignal.any(signals) }
            : {}),
      });
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw report(new UnreachableError(baseUrl || url, unreachable()), area, method);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // The connection dropped while the answer was read (or the page is being left).
      if (call.signal?.aborted) throw error;
      throw report(new UnreachableError(baseUrl || url, unreachable()), area, method);
    }
    let body: unknown;
    let readable = true;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      readable = false;
    }
    if (response.ok) {
      if (!readable) {
        throw report(
          new ApiError(response.status, 'UNEXPECTED_STATUS', 'The server sent an answer that could not be read'),
          area,
          method,
        );
      }
      return { status: response.status, body, headers: response.headers };
    }
    throw report(errorOf(response.status, body, baseUrl || url, unreachable), area, method);
  }

  function report(error: ApiError, area: string, method: string): ApiError {
    options.onError?.(error, { area, method });
    return error;
  }

  return {
    baseUrl,
    raw,
    /** One method of the contract, its input and output checked at compile time. */
    async call<A extends AreaName, M extends MethodName<A>>(
      area: A,
      method: M,
      ...args: RpcArgs<A, M>
    ): Promise<RpcOutput<A, M>> {
      const [input, call] = args;
      return (await raw(area, method, input, call)).body as RpcOutput<A, M>;
    },
  };
}

export type RpcClient = ReturnType<typeof createRpcClient>;

function errorOf(status: number, body: unknown, url: string, unreachable: () => string): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (status >= 400 && status < 500 && error && typeof error.message === 'string') {
    const details = Array.isArray(error.details) ? (error.details as FieldError[]) : [];
    return new ApiError(status, typeof error.code === 'string' ? error.code : 'BAD_REQUEST', error.message, details);
  }
  // Proxies answering 502/504 mean the server itself is not there.
  if (status === 502 || status === 504) return new UnreachableError(url, unreachable(), status);
  return new ApiError(status, 'UNEXPECTED_STATUS', `Unexpected response status (${status})`);
}

/** The session token a login answer set in its cookie (the cli and e2e send it back as Bearer). */
export function sessionTokenOf(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const match = /^medlocker_session=([^;]*)/.exec(line);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return undefined;
}
