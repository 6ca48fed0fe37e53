import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What runs on behalf of one request or one job: the request's id, so a job queued while handling it
 * stores it (jobs/repository.ts) and every log line written meanwhile carries it (log/logger.ts).
 */
type Scope = { requestId: string | null };
const scope = new AsyncLocalStorage<Scope>();

/**
 * Wraps the app's fetch handler (app.ts) so each request's work runs in its own scope; the app's first
 * hook names the request's id in it (`enterRequestScope`).
 */
export function withRequestScope<A extends unknown[], R>(handle: (request: Request, ...rest: A) => R) {
  return (request: Request, ...rest: A): R => scope.run({ requestId: null }, () => handle(request, ...rest));
}

/** Names the id of the request whose scope this is (a no-op outside one). */
export function enterRequestScope(requestId: string): void {
  const s = scope.getStore();
  if (s) s.requestId = requestId;
}

/** Runs `fn` on behalf of the request with this id (a job queued by it: jobs/runner.ts). */
export function withRequestId<R>(requestId: string | null, fn: () => R): R {
  return scope.run({ requestId }, fn);
}

/** The id of the request (or of the request that queued the job) being handled now; null outside both. */
export function currentRequestId(): string | null {
  return scope.getStore()?.requestId ?? null;
}
