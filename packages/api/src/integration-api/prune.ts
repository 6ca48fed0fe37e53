import type { AppDeps } from '../context/deps.ts';
import { IDEMPOTENCY_TTL_MS } from './idempotency.ts';
import { pruneIntegrationRows } from './repository.ts';

/** The hourly job `integration.prune`: idempotency keys past their 24 hours, and expired bearer tokens. */
export function pruneIntegration(deps: AppDeps): Promise<number> {
  const now = deps.now();
  return pruneIntegrationRows(deps.db, now - IDEMPOTENCY_TTL_MS, now);
}
