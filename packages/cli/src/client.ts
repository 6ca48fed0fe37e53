import { ApiError, createRpcClient, sessionTokenOf, UnreachableError } from '@medlocker/core';

export type { RawResult } from '@medlocker/core';
/** The cli's client is core's one typed RPC client (shared with the console and the e2e helpers). */
export { ApiError, sessionTokenOf, UnreachableError };

export type ClientOptions = {
  /** e.g. http://localhost:3000, without a trailing slash. */
  baseUrl: string;
  /** The session token, sent as `Authorization: Bearer`. */
  token?: string;
  fetch?: typeof fetch;
};

/**
 * A typed client of the RPC API: `client.call('users', 'getUser', { id })` is checked against core's
 * contract at compile time. 2xx answers are returned; anything else becomes an {@link ApiError}, an
 * unreachable server an {@link UnreachableError} (SPEC §8) after 30 s at most.
 */
export function createClient(options: ClientOptions) {
  const { fetch: doFetch, token } = options;
  return createRpcClient({
    baseUrl: options.baseUrl,
    timeoutMs: 30_000,
    ...(doFetch ? { fetch: (url: string, init: RequestInit) => doFetch(url, init) } : {}),
    headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
  });
}

export type Client = ReturnType<typeof createClient>;
