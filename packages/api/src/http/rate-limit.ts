import ipaddr from 'ipaddr.js';

/**
 * A token bucket per key (a client address): `capacity` requests at once, refilled at `capacity` per
 * `perMs`. Kept in memory, per process: a restart forgives, which is fine for what it guards against
 * (one client flooding an endpoint that writes a row per call). Keys idle long enough to be full again
 * are dropped when the map grows, so it stays small.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token for `key` at `now`: true when allowed, else the seconds until one is back. */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const bucket = this.refilled(key, now);
    if (bucket.tokens < 1) return this.refusal(bucket);
    bucket.tokens -= 1;
    return { ok: true };
  }

  /** Whether `key` has a token at `now`, without taking it (e.g. to count only failures). */
  check(key: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const bucket = this.refilled(key, now);
    return bucket.tokens < 1 ? this.refusal(bucket) : { ok: true };
  }

  private refilled(key: string, now: number) {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    // A clock that went back (tests, a corrected system clock) refills nothing.
    bucket.tokens = Math.min(this.capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.rate);
    bucket.at = Math.max(bucket.at, now);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.prune(now);
    return bucket;
  }

  private refusal(bucket: { tokens: number }) {
    return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate / 1000)) };
  }

  private get rate() {
    return this.capacity / this.perMs;
  }

  private prune(now: number) {
    const fullAfterMs = this.perMs;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
  }
}

/**
 * The key a client address is limited under: an IPv4 address itself (IPv4 written as IPv6, ::ffff:a.b.c.d,
 * counts as that IPv4 address), an IPv6 address by its /64 network, since one subscriber is handed a
 * whole /64 and can use any address in it; anything unreadable as itself.
 */
export function addressKey(address: string | null): string {
  if (address === null) return 'unknown';
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
