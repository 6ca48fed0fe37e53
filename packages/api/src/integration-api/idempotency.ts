import { AppError } from '@medlocker/core';
import type { AppDeps } from '../context/deps.ts';
import { ProblemError } from './problem.ts';
import { claimKey, findKey, releaseKey, saveKeyResponse } from './repository.ts';
import type { IntegrationActor } from './service.ts';

/*
 * `Idempotency-Key` on a POST: the first request with a key is answered and its answer kept
 * 24 hours; the same key with the same method, path and body answers that answer again; with anything
 * else it is 422; while the first is still being answered, 409.
 */

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** A key: 1 to 255 visible ASCII characters (a UUID is usual). */
const KEY = /^[\x21-\x7e]{1,255}$/;

export type Idempotent = {
  /** The first request's answer, when this request repeats it. */
  replay?: { status: number; body: unknown };
  /** Keeps this request's answer for the key. */
  finish(status: number, body: unknown): Promise<void>;
  /** Frees the key when the request failed on our side (a retry may then try again). */
  abandon(): Promise<void>;
};

/** JSON with object keys sorted: the same body however its keys were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const hashOf = (method: string, path: string, body: unknown) =>
  new Bun.CryptoHasher('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('hex');

/** Starts an idempotent request, or answers null when it carries no Idempotency-Key. */
export async function beginIdempotent(
  deps: AppDeps,
  actor: IntegrationActor,
  request: Request,
  path: string,
  body: unknown,
): Promise<Idempotent | null> {
  const key = request.headers.get('idempotency-key');
  if (key === null) return null;
  if (!KEY.test(key)) {
    throw new AppError('VALIDATION', 'The Idempotency-Key must be 1 to 255 visible ASCII characters', [
      { path: 'Idempotency-Key', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
    ]);
  }
  const now = deps.now();
  const requestHash = hashOf(request.method, path, body);
  const handle: Idempotent = {
    finish: (status, answer) => saveKeyResponse(deps.db, actor.clientId, key, status, answer),
    abandon: () => releaseKey(deps.db, actor.clientId, key),
  };
  const k = { clientId: actor.clientId, key, method: request.method, path, requestHash, now };
  if (await claimKey(deps.db, k, now - IDEMPOTENCY_TTL_MS)) return handle;
  const stored = await findKey(deps.db, actor.clientId, key);
  if (!stored) {
    // Freed between the claim and the read (the first request failed on our side): claim it again.
    if (await claimKey(deps.db, k, now - IDEMPOTENCY_TTL_MS)) return handle;
    throw new ProblemError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is being answered');
  }
  if (stored.requestHash !== requestHash) {
    throw new ProblemError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used for another request (a different method, path or body)',
    );
  }
  if (stored.status === null) {
    throw new ProblemError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is being answered');
  }
  return { replay: { status: stored.status, body: stored.response }, finish: async () => {}, abandon: async () => {} };
}
