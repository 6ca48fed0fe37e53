import ipaddr from 'ipaddr.js';

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
