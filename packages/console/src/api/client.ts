import type { AreaName, Contract, ErrorCode, FieldError, InputOf, OutputOf } from '@medlocker/core';

/**
 * The typed RPC client: `rpc('auth', 'login', { username, password })` posts to `/api/auth/login`
 * and resolves with the method's output type from core's contract. Every failure is an
 * {@link ApiError}; the session state listens for 401/403 (see {@link onAuthFailure}).
 */

export type MethodOf<A extends AreaName> = keyof Contract[A] & string;
type MethodDef<A extends AreaName, M extends MethodOf<A>> = Contract[A][M] extends import('@medlocker/core').Method
  ? Contract[A][M]
  : never;
export type RpcInput<A extends AreaName, M extends MethodOf<A>> = InputOf<MethodDef<A, M>>;
export type RpcOutput<A extends AreaName, M extends MethodOf<A>> = OutputOf<MethodDef<A, M>>;

/** Codes the server sends, plus the two the client makes up for transport failures. */
export type ApiErrorCode = ErrorCode | 'UNREACHABLE' | 'UNEXPECTED_STATUS';

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

  /** Field path → message, for react-aria's `<Form validationErrors>`. */
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

/** The product name used in the unreachable-server message; set once auth.config has answered. */
let productName = 'MedLocker';
export const setProductName = (name: string) => {
  productName = name;
};
export const unreachableMessage = () => `The ${productName} server could not be reached`;

type AuthFailureListener = (error: ApiError, call: { area: string; method: string }) => void;
const authFailureListeners = new Set<AuthFailureListener>();

/** Called on every 401 or 403: the session state clears itself. Returns an unsubscribe function. */
export function onAuthFailure(listener: AuthFailureListener): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

export async function rpc<A extends AreaName, M extends MethodOf<A>>(
  area: A,
  method: M,
  ...args: Record<never, never> extends RpcInput<A, M>
    ? [input?: RpcInput<A, M>, options?: RpcOptions]
    : [input: RpcInput<A, M>, options?: RpcOptions]
): Promise<RpcOutput<A, M>> {
  const [input, options] = args;
  let response: Response;
  try {
    response = await fetch(`/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(input ?? {}),
      credentials: 'same-origin',
      signal: options?.signal,
    });
  } catch (error) {
    if (options?.signal?.aborted) throw error;
    throw new ApiError(0, 'UNREACHABLE', unreachableMessage());
  }

  if (response.ok) {
    try {
      return (await response.json()) as RpcOutput<A, M>;
    } catch {
      throw new ApiError(response.status, 'UNEXPECTED_STATUS', 'The server sent an answer that could not be read');
    }
  }

  const error = await errorOf(response);
  if (error.status === 401 || error.status === 403) {
    for (const listener of authFailureListeners) listener(error, { area, method });
  }
  throw error;
}

export type RpcOptions = { signal?: AbortSignal };

async function errorOf(response: Response): Promise<ApiError> {
  const { status } = response;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (status >= 400 && status < 500 && error && typeof error.message === 'string') {
    const details = Array.isArray(error.details) ? (error.details as FieldError[]) : [];
    return new ApiError(status, (error.code as ErrorCode) ?? 'BAD_REQUEST', error.message, details);
  }
  // Proxies answering 502/504 mean the server itself is not there.
  if (status === 502 || status === 504) return new ApiError(status, 'UNREACHABLE', unreachableMessage());
  return new ApiError(status, 'UNEXPECTED_STATUS', `Unexpected response status (${status})`);
}

/** Any thrown value as a sentence a person can read. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.formMessage;
  if (error instanceof Error) return error.message;
  return 'An unknown error occurred';
}

/**
 * The server's per-field messages with a prefix taken off ('settings.smsSenderName' →
 * 'smsSenderName'), and the message for the form when none is about a field.
 */
export function errorsOf(error: unknown, prefix = ''): { fields: Record<string, string>; form?: string } {
  if (error instanceof ApiError && error.details.some((d) => d.path)) {
    const fields: Record<string, string> = {};
    for (const [path, message] of Object.entries(error.fieldErrors)) {
      fields[prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path] = message;
    }
    return { fields };
  }
  return { fields: {}, form: messageOf(error) };
}
