import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/*
 * Server-side request forgery: a webhook URL is typed by staff of a business, so it must not
 * reach our own network. Only https in production; the host is resolved (every address) and refused when
 * any address is private, loopback, link-local (the cloud metadata address 169.254.169.254 among them),
 * CGNAT, multicast, unspecified, unique-local (fd00:ec2::254, AWS's IPv6 metadata address), any other
 * special range, or an IPv4-mapped IPv6 form of one of these. Checked at save (a field error) and at
 * every send, after DNS: the request then goes to the checked address (webhooks/send.ts), so a name that
 * resolves elsewhere a moment later (DNS rebinding) cannot swap it. `WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1`
 * lifts the address rule (development, tests, the bench), never the scheme rule in production.
 */

export type SsrfPolicy = { production: boolean; allowPrivateAddresses: boolean };

/**
 * Where a webhook goes: the URL as saved and the address it was checked to resolve to (null when private
 * addresses are allowed: nothing to protect, the URL is fetched as it is).
 */
export type CheckedTarget = { url: URL; address: string | null; family: 4 | 6 };

export class RefusedTarget extends Error {}

/**
 * Special ranges ipaddr.js (1.9) still calls unicast: benchmarking 198.18.0.0/15 (also the fake-IP range of
 * DNS-rewriting proxies), site-local fec0::/10, local-use NAT64 64:ff9b:1::/48 (RFC 8215: an IPv4 address,
 * private ones too, through the site's gateway), IPv4-compatible ::/96 (::a.b.c.d) and discard-only 100::/64.
 */
const specialV4 = { benchmarking: [ipaddr.IPv4.parseCIDR('198.18.0.0/15')] };
const specialV6 = {
  'site-local': [ipaddr.IPv6.parseCIDR('fec0::/10')],
  'local-use NAT64': [ipaddr.IPv6.parseCIDR('64:ff9b:1::/48')],
  'IPv4-compatible': [ipaddr.IPv6.parseCIDR('::/96')],
  'discard-only': [ipaddr.IPv6.parseCIDR('100::/64')],
};

/**
 * A refusal in words, from `why` (refusedAddress's answer for one address `host` resolves to): "Refused:
 * 127.0.0.1 is a loopback address" for an address typed as the host, "Refused: example.test resolves to
 * 10.0.0.1, a private address" for a name. Null when `why` is.
 */
export function refusedHost(host: string, address: string, why: string | null): string | null {
  if (!why) return null;
  return host === address ? `Refused: ${why}` : `Refused: ${host} resolves to ${why.replace(' is ', ', ')}`;
}

/** Why an address may not be called, or null when it is a public unicast address. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so a mapped private address is judged as IPv4.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is a ${range} address`;
  const special =
    parsed instanceof ipaddr.IPv4
      ? ipaddr.subnetMatch(parsed, specialV4, 'unicast')
      : ipaddr.subnetMatch(parsed, specialV6, 'unicast');
  return special === 'unicast' ? null : `${address} is a ${special} address`;
}

/** The URL's scheme and form, before any lookup: the check at save and the first step at send. */
export function refusedUrl(raw: string, policy: SsrfPolicy): string | null {
  const url = URL.parse(raw);
  if (!url) return 'The webhook URL is not a valid URL';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The webhook URL must start with https://';
  if (policy.production && url.protocol !== 'https:') return 'The webhook URL must start with https://';
  if (url.username || url.password) return 'The webhook URL cannot hold a user name or password';
  return null;
}

/** A URL's host name without the brackets of an IPv6 literal. */
export const bare = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const lookupAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** The addresses a host stands for: itself when it is an IP address, else every address DNS gives (its error thrown). */
export async function addressesOf(host: string, resolve: Resolve = lookupAll) {
  return ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : resolve(host);
}

/**
 * Resolves the URL's host and checks every address: the target to connect to, or a RefusedTarget that
 * says why not. `unresolved: 'allow'` (at save) lets a name that does not resolve yet through: a partner
 * may set up its DNS after us; it is checked again at every send, where it is refused.
 */
export async function checkTarget(
  raw: string,
  policy: SsrfPolicy,
  options: {
    unresolved?: 'refuse' | 'allow';
    resolve?: Resolve;
  } = {},
): Promise<CheckedTarget> {
  const wrong = refusedUrl(raw, policy);
  if (wrong) throw new RefusedTarget(wrong);
  const url = new URL(raw);
  if (policy.allowPrivateAddresses) return { url, address: null, family: 4 };
  const host = bare(url.hostname);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await addressesOf(host, options.resolve);
  } catch (error) {
    if (options.unresolved === 'allow') return { url, address: null, family: 4 };
    throw new RefusedTarget(`${host} does not resolve (${(error as { code?: string }).code ?? String(error)})`);
  }
  for (const { address } of addresses) {
    const why = refusedHost(host, address, refusedAddress(address));
    if (why) throw new RefusedTarget(why);
  }
  const first = addresses[0];
  if (!first) throw new RefusedTarget(`${host} does not resolve`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * How to fetch a checked target: its address in place of the name (DNS is not asked again), and, for a
 * name over https, that name for SNI and the certificate check. The caller sends the URL's host as Host.
 */
export function pinnedFetch(target: CheckedTarget): { url: string; tls: { tls?: { serverName: string } } } {
  if (target.address === null) return { url: target.url.toString(), tls: {} };
  const url = new URL(target.url);
  url.hostname = target.family === 6 ? `[${target.address}]` : target.address;
  const hostIsName = !ipaddr.isValid(bare(target.url.hostname));
  return {
    url: url.toString(),
    tls: target.url.protocol === 'https:' && hostIsName ? { tls: { serverName: target.url.hostname } } : {},
  };
}
