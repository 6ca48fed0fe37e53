import { expect, it } from 'bun:test';
import { addressKey } from './address-key.ts';

it('limits IPv6 clients by their /64 network, and IPv4 written as IPv6 as the IPv4 address', () => {
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  expect(addressKey(null)).toBe('unknown');
});
