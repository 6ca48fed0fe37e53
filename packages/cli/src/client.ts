import type { AreaName, Contract, InputOf, Method, OutputOf } from '@medlocker/core';

type MethodOf<A extends AreaName, M extends keyof Contract[A]> = Contract[A][M] extends Method ? Contract[A][M] : never;

/** The API refused the call: its status and the `{ error: { code, message, details } }` body. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { path: string; id: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** SPEC §8: the server could not be reached at all (refused, DNS, timeout). */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
  constructor(
    readonly url: string,
    productName = 'MedLocker',
  ) {
    super(`The ${productName} server could not be reached`);
  }
}

export type ClientOptions = {
  /** e.g. http://localhost:3000, without a trailing slash. */
  baseUrl: string;
  /** The session token, sent as `Authorization: Bearer`. */
  token?: string;
  fetch?: typeof fetch;
};

export type RawResult = { status: number; body: unknown; headers: Headers };

/**
 * A typed client of the RPC API: `client.call('users', 'getUser', { id })` is checked against core's
 * contract at compile time. 2xx answers are returned; anything else becomes an {@link ApiError}.
 */
export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  async function raw(area: string, method: string, input: unknown): Promise<RawResult> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}/api/${area}/${method}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify(input ?? {}),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new UnreachableError(baseUrl);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, body, headers: res.headers };
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    if (error && typeof error.message === 'string') {
      throw new ApiError(
        res.status,
        typeof error.code === 'string' ? error.code : 'ERROR',
        error.message,
        Array.isArray(error.details) ? (error.details as ApiError['details']) : [],
      );
    }
    throw new ApiError(res.status, 'UNEXPECTED', `unexpected response status ${res.status}`);
  }

  return {
    baseUrl,
    raw,
    async call<A extends AreaName, M extends keyof Contract[A] & string>(
      area: A,
      method: M,
      input: InputOf<MethodOf<A, M>>,
    ): Promise<OutputOf<MethodOf<A, M>>> {
      return (await raw(area, method, input)).body as OutputOf<MethodOf<A, M>>;
    },
  };
}

export type Client = ReturnType<typeof createClient>;

/** The session token a login answer set in its cookie. */
export function sessionTokenOf(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const match = /^medlocker_session=([^;]*)/.exec(line);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return undefined;
}
