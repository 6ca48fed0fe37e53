import ipaddr from 'ipaddr.js';
import type { Config } from '../../config/config.ts';
import { addressesOf, bare, pinnedFetch, refusedAddress, refusedHost } from '../../ssrf/ssrf.ts';

/*
 * Server-side request forgery on identity providers: an OIDC issuer (and what its discovery
 * names: token endpoint, keys, userinfo) and a SAML metadata URL are typed by support staff and fetched
 * by the server, at `identityProviders.test` and at sign-in. Only https to a public address: the host is
 * resolved and every address checked (private, loopback, link-local with the metadata address
 * 169.254.169.254, unique-local, any special range: webhooks/ssrf.ts), and the request goes to the checked
 * address, so a name that resolves elsewhere a moment later cannot swap it. Each redirect is checked the
 * same way (at most 3), the whole fetch takes at most 5 s and at most 1 MB is read.
 * SSO_ALLOW_HTTP_LOOPBACK=1 (development, tests; never in production) lets plain http and loopback
 * addresses (127.0.0.0/8, ::1, localhost) through, and nothing else.
 */

export type ProviderPolicy = { allowHttpLoopback: boolean };

export const providerPolicy = (config: Pick<Config, 'ssoAllowHttpLoopback'>): ProviderPolicy => ({
  allowHttpLoopback: config.ssoAllowHttpLoopback,
});

export const PROVIDER_FETCH_TIMEOUT_MS = 5_000;
export const PROVIDER_RESPONSE_LIMIT = 1_000_000;
const MAX_REDIRECTS = 3;

/** A provider that could not be reached or answered something we cannot use: said in words. */
export class ProviderProblem extends Error {}

/** A provider URL we will not fetch (scheme, credentials, a private address). */
export class RefusedProviderUrl extends ProviderProblem {}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/** Why an address may not be fetched under the policy, or null. */
function refusedProviderAddress(address: string, policy: ProviderPolicy): string | null {
  if (policy.allowHttpLoopback && isLoopback(address)) return null;
  return refusedAddress(address);
}

/** The URL's form, before any lookup: the check at save. Null when it may be fetched. */
export function refusedProviderUrl(raw: string, policy: ProviderPolicy): string | null {
  const url = URL.parse(raw);
  if (!url) return 'Must be a web address (https://…)';
  const host = bare(url.hostname);
  if (url.protocol === 'http:') {
    if (!policy.allowHttpLoopback) return 'Must start with https://';
    if (!isLoopback(host)) return 'Must start with https:// (plain http only to a loopback address)';
  } else if (url.protocol !== 'https:') {
    return 'Must start with https://';
  }
  if (url.username || url.password) return 'Cannot hold a user name or password';
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!policy.allowHttpLoopback) return `Refused: ${host} is a loopback address`;
  } else if (ipaddr.isValid(host)) {
    const why = refusedProviderAddress(host, policy);
    if (why) return `Refused: ${why}`;
  }
  return null;
}

type Target = { url: URL; address: string; family: 4 | 6 };

/**
 * Resolves the URL's host and checks every address; `unresolved: 'allow'` (at save) lets a name that
 * does not resolve yet through: it is checked again at every fetch.
 */
export async function checkProviderUrl(
  raw: string,
  policy: ProviderPolicy,
  options: { unresolved?: 'refuse' | 'allow' } = {},
): Promise<Target | null> {
  const wrong = refusedProviderUrl(raw, policy);
  if (wrong) throw new RefusedProviderUrl(`${raw}: ${wrong}`);
  const url = new URL(raw);
  const host = bare(url.hostname);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await addressesOf(host);
  } catch (error) {
    if (options.unresolved === 'allow') return null;
    throw new ProviderProblem(`${host} does not resolve (${(error as { code?: string }).code ?? String(error)})`);
  }
  for (const { address } of addresses) {
    const why = refusedHost(host, address, refusedProviderAddress(address, policy));
    if (why) throw new RefusedProviderUrl(why);
  }
  const first = addresses[0];
  if (!first) throw new ProviderProblem(`${host} does not resolve`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function boundedBody(res: Response): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(res.headers.get('content-length') ?? 0) > PROVIDER_RESPONSE_LIMIT)
    throw new ProviderProblem("The provider's answer is larger than 1 MB");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > PROVIDER_RESPONSE_LIMIT) throw new ProviderProblem("The provider's answer is larger than 1 MB");
        chunks.push(value);
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  return Buffer.concat(chunks, size);
}

/**
 * A fetch for provider URLs (openid-client's customFetch, the SAML metadata): every hop checked, pinned
 * to the checked address, at most 5 s and 1 MB. `redirect: 'manual'` (openid-client) hands a 3xx back;
 * otherwise up to 3 redirects are followed, each checked before it is fetched.
 */
export function providerFetch(policy: ProviderPolicy, timeoutMs = PROVIDER_FETCH_TIMEOUT_MS) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
    let current = String(input);
    try {
      for (let hop = 0; ; hop++) {
        const target = await checkProviderUrl(current, policy);
        if (!target) throw new ProviderProblem(`${current} does not resolve`);
        const pinned = pinnedFetch(target);
        const headers = new Headers(init.headers);
        headers.set('host', target.url.host);
        const res = await fetch(pinned.url, { ...init, headers, signal, redirect: 'manual', ...pinned.tls });
        const location = res.headers.get('location');
        if (init.redirect !== 'manual' && res.status >= 300 && res.status < 400 && location) {
          await res.body?.cancel().catch(() => {});
          if (hop >= MAX_REDIRECTS) throw new ProviderProblem(`More than ${MAX_REDIRECTS} redirects`);
          current = new URL(location, target.url).toString();
          continue;
        }
        const body = await boundedBody(res);
        const answered = new Headers(res.headers);
        // The body is already decoded and whole: its old length and encoding no longer describe it.
        answered.delete('content-encoding');
        answered.delete('content-length');
        return new Response(res.status === 204 || res.status === 304 ? null : body, {
          status: res.status,
          statusText: res.statusText,
          headers: answered,
        });
      }
    } catch (error) {
      if (timeout.aborted) throw new ProviderProblem(`No answer within ${timeoutMs / 1000} s from ${current}`);
      throw error;
    }
  };
}
