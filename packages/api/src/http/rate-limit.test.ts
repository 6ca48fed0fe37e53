import { expect, it } from 'bun:test';
import { addressKey, RateLimiter } from './rate-limit.ts';

it('allows a burst up to its capacity, then refills at its rate, per key', () => {
  const limiter = new RateLimiter(3, 60_000);
  for (let i = 0; i < 3; i++) expect(limiter.take('a', 0)).toEqual({ ok: true });
  expect(limiter.take('a', 0)).toEqual({ ok: false, retryAfterSeconds: 20 });
  expect(limiter.take('b', 0)).toEqual({ ok: true });
  expect(limiter.take('a', 19_000)).toEqual({ ok: false, retryAfterSeconds: 1 });
  expect(limiter.take('a', 20_000)).toEqual({ ok: true });
  expect(limiter.take('a', 20_000).ok).toBe(false);
  // a clock that goes back refills nothing
  expect(limiter.take('a', 0).ok).toBe(false);
});

it('checks a key without taking from it', () => {
  const limiter = new RateLimiter(2, 60_000);
  expect(limiter.check('a', 0)).toEqual({ ok: true });
  expect(limiter.check('a', 0)).toEqual({ ok: true });
  limiter.take('a', 0);
  limiter.take('a', 0);
  expect(limiter.check('a', 0)).toEqual({ ok: false, retryAfterSeconds: 30 });
});

it('forgets keys that are full again once it holds too many', () => {
  const limiter = new RateLimiter(1, 1000, 2);
  expect(limiter.take('a', 0).ok).toBe(true);
  expect(limiter.take('b', 0).ok).toBe(true);
  expect(limiter.take('c', 5000).ok).toBe(true);
  // a and b were pruned (full again); a starts afresh, c is still spent
  expect(limiter.take('a', 5000).ok).toBe(true);
  expect(limiter.take('c', 5000).ok).toBe(false);
});

it('limits IPv6 clients by their /64 network, and IPv4 written as IPv6 as the IPv4 address', () => {
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  expect(addressKey(null)).toBe('unknown');
});
