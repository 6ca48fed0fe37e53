import type { AreaName, FieldError, MethodName, RpcInput, RpcOutput } from '@medlocker/core';
import { ApiError as ContractApiError } from '@medlocker/core/client';
import { sayRefusal } from './i18n/errors.ts';
import { t } from './i18n/index.ts';

/**
 * The patient page's RPC calls: `rpc('patientOrders', 'get', { orderId })` posts JSON to
 * `/api/patientOrders/get` with the page's own cookie (the patient session's, set by the server) and
 * resolves with the method's output type from core's contract. Only types come from core's index
 * (`import type`): its runtime (arktype) would more than double this page's JavaScript; the error class
 * comes from core's client module, which loads nothing.
 * Every failure is an {@link ApiError}; a 401 tells {@link onSessionEnded}'s listeners.
 */

/** A refused or failed call: core's, the console's and the cli's, with the seconds a 429 asks to wait. */
export class ApiError extends ContractApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    details: FieldError[] = [],
    /** Seconds, from `Retry-After` on a 429. */
    readonly retryAfter?: number,
  ) {
    super(status, code, message, details);
  }
}

let productName = 'MedLocker';
/** The product's name (PRODUCT_NAME) once the server has said it, for the unreachable message. */
export const setProductName = (name: string) => {
  productName = name;
};
/** SPEC §8's words, with the product's name. */
export const unreachableMessage = () =>
  `The ${productName} server could not be reached. Check your connection and try again.`;

/** Where the API is: '' (the page's own origin) in the browser; tests point it at a local server. */
let apiOrigin = '';
export const setApiOrigin = (origin: string) => {
  apiOrigin = origin.replace(/\/+$/, '');
};

const sessionEndedListeners = new Set<() => void>();

let lastAnswer = Date.now();
/** When the server last answered a call with success (each one moves the session's idle clock on). */
export const lastAnswerAt = () => lastAnswer;

/** Called when a call finds no patient session (none, timed out or ended): the page asks again who you are. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

type Args<A extends AreaName, M extends MethodName<A>> =
  Record<never, never> extends RpcInput<A, M> ? [input?: RpcInput<A, M>] : [input: RpcInput<A, M>];

export async function rpc<A extends AreaName, M extends MethodName<A>>(
  area: A,
  method: M,
  ...[input]: Args<A, M>
): Promise<RpcOutput<A, M>> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${apiOrigin}/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(input ?? {}),
      credentials: 'same-origin',
    });
    text = await response.text();
  } catch {
    throw new ApiError(0, 'UNREACHABLE', unreachableMessage());
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.ok) {
    lastAnswer = Date.now();
    return body as RpcOutput<A, M>;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (response.status === 401) for (const listener of sessionEndedListeners) listener();
  if (response.status >= 400 && response.status < 500 && error && typeof error.message === 'string') {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'BAD_REQUEST',
      error.message,
      Array.isArray(error.details) ? (error.details as FieldError[]) : [],
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  if (response.status === 502 || response.status === 504) throw new ApiError(0, 'UNREACHABLE', unreachableMessage());
  if (response.status === 503 && error && typeof error.message === 'string') {
    throw new ApiError(503, 'UNAVAILABLE', error.message);
  }
  throw new ApiError(response.status, 'UNEXPECTED_STATUS', 'Something went wrong on our side. Please try again.');
}

/** Any thrown value as a sentence a person can read. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return sayRefusal(error, productName);
  return t('error.unknown');
}
