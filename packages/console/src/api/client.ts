import {
  ApiError,
  type AreaName,
  type CallOptions,
  createRpcClient,
  type MethodName,
  type RpcArgs,
  type RpcInput,
  type RpcOutput,
} from '@medlocker/core';
import { t } from '../i18n/layer.ts';

/**
 * The console's RPC calls: `rpc('auth', 'login', { username, password })` posts to `/api/auth/login`
 * through core's one typed client (createRpcClient, shared with the cli and the e2e helpers) and
 * resolves with the method's output type. Every failure is an {@link ApiError}; the session state
 * listens for 401/403 (see {@link onAuthFailure}).
 */

export { ApiError, type ApiErrorCode } from '@medlocker/core';
export type MethodOf<A extends AreaName> = MethodName<A>;
export type { RpcInput, RpcOutput };

/** The product name used in the unreachable-server message; set once auth.config has answered. */
let productName = 'MedLocker';
export const setProductName = (name: string) => {
  productName = name;
};
export const unreachableMessage = () => t('api.serverUnreachable', { product: productName });

type AuthFailureListener = (error: ApiError, call: { area: string; method: string }) => void;
const authFailureListeners = new Set<AuthFailureListener>();

/** Called on every 401 or 403: the session state clears itself. Returns an unsubscribe function. */
export function onAuthFailure(listener: AuthFailureListener): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

export const client = createRpcClient({
  baseUrl: '',
  credentials: 'same-origin',
  unreachableMessage,
  onError: (error, call) => {
    if (error.status === 401 || error.status === 403)
      for (const listener of authFailureListeners) listener(error, call);
  },
});

export type RpcOptions = CallOptions;

export function rpc<A extends AreaName, M extends MethodOf<A>>(
  area: A,
  method: M,
  ...args: RpcArgs<A, M>
): Promise<RpcOutput<A, M>> {
  return client.call(area, method, ...args);
}

/** Any thrown value as a sentence a person can read. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.formMessage;
  if (error instanceof Error) return error.message;
  return t('api.unknownError');
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
