import type { AuthPort, Principal } from '../context/actor.ts';
import type { LiveHub } from '../live/live.ts';
import { refusePending } from './pending.ts';
import { tokenOf } from './sessions.ts';

export type SessionCacheOptions = {
  /** How long a looked-up session is answered from memory before it is looked up again. */
  ttlMs?: number;
  /** Most sessions kept; the oldest go first. */
  max?: number;
};

type Entry = { principal: Principal; loadedAt: number };

/**
 * An AuthPort that remembers the principal of each session token for a few seconds, so a busy client
 * does not pay a database round trip (about 1.2 ms) on every call. Wraps the real AuthPort
 * (createSessionAuth) without changing what it answers:
 *
 * - Revocation takes effect at once. Logout, a login over an old cookie, a password reset and every
 *   role change call `LiveHub.accessChanged(userId)` once their transaction has committed: this
 *   process forgets the user's sessions synchronously in that call (onAccessChangedHere), before the
 *   caller's answer is sent, and every other api process forgets them when the change reaches it
 *   (LISTEN/NOTIFY on PostgreSQL, pg-transport.ts: a millisecond or so).
 * - A lookup that was in flight while any change arrived is not remembered (a generation counter), so
 *   an answer read before a change can never be cached after it.
 * - Entries live `ttlMs` (5 s by default) at most, which bounds what a lost notification (the LISTEN
 *   connection dropped) or a change made outside the api could leave stale; and every `ttlMs` the
 *   real AuthPort sees the session again, so idle expiry and its activity touch work as before
 *   (the touch is written at most once a minute anyway). Absolute expiry may be seen up to `ttlMs` late.
 * - Only principals are remembered: no token, an unknown token, an expired or revoked session go to
 *   the real AuthPort every time.
 */
export function cachedAuth(inner: AuthPort, live: LiveHub, options: SessionCacheOptions = {}): AuthPort {
  const ttlMs = options.ttlMs ?? 5_000;
  const max = options.max ?? 10_000;
  const byToken = new Map<string, Entry>();
  const tokensOfUser = new Map<string, Set<string>>();
  let generation = 0;

  const forget = (token: string) => {
    const entry = byToken.get(token);
    if (!entry) return;
    byToken.delete(token);
    const tokens = tokensOfUser.get(entry.principal.userId);
    tokens?.delete(token);
    if (tokens?.size === 0) tokensOfUser.delete(entry.principal.userId);
  };
  const forgetUser = ({ userId }: { userId: string }) => {
    generation++;
    for (const token of tokensOfUser.get(userId) ?? []) byToken.delete(token);
    tokensOfUser.delete(userId);
  };
  live.onAccessChangedHere(forgetUser);
  live.onAccessChanged(forgetUser);

  return {
    async principalOf(request, ctx) {
      const token = tokenOf(request);
      if (!token) return inner.principalOf(request, ctx);
      const entry = byToken.get(token);
      if (entry && ctx.now - entry.loadedAt < ttlMs && ctx.now >= entry.loadedAt)
        return refusePending(entry.principal, ctx.allowPending);
      if (entry) forget(token);
      const started = generation;
      const loadedAt = ctx.now;
      // Pending sessions are remembered too; each caller's own `allowPending` decides below.
      const principal = await inner.principalOf(request, { ...ctx, allowPending: true });
      if (principal && generation === started) {
        if (byToken.size >= max) {
          const oldest = byToken.keys().next().value;
          if (oldest !== undefined) forget(oldest);
        }
        byToken.set(token, { principal, loadedAt });
        const tokens = tokensOfUser.get(principal.userId) ?? new Set<string>();
        tokens.add(token);
        tokensOfUser.set(principal.userId, tokens);
      }
      return refusePending(principal, ctx.allowPending);
    },
  };
}
