import { startNodeProvider } from './node-provider.ts';

export type TestIdp = {
  issuer: string;
  /** Makes the token endpoint send a broken ID token, or honest ones again (null). */
  idTokenMode(mode: 'wrong-audience' | 'expired' | null): Promise<void>;
  stop(): void;
};

/** Starts oidc-provider under Node (Bun does not run it) with these clients; resolves once it listens. */
export async function startTestIdp(clients: Record<string, unknown>[]): Promise<TestIdp> {
  const { issuer, stop } = await startNodeProvider('./oidc-idp.mjs', clients, 'the test OpenID provider');
  return {
    issuer,
    idTokenMode: async (mode) => {
      await fetch(`${issuer}/test/id-token`, { method: 'POST', body: JSON.stringify({ mode }) });
    },
    stop,
  };
}

/**
 * Signs in at the provider as a browser would: follows the authorization URL to the login form, posts
 * `login`, and follows redirects until one leaves the provider. Returns that URL (our callback).
 */
export async function signInAtIdp(authUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authUrl).origin;
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  let url = authUrl;
  for (let i = 0; i < 10; i++) {
    const res = await send(url);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 200)}`);
    const form = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'anything' })
      : new URLSearchParams({ prompt: 'consent' });
    const posted = await send(new URL(action, url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const after = posted.headers.get('location');
    if (!after) throw new Error(`the provider did not redirect after the form: ${posted.status}`);
    const next = new URL(after, url);
    if (next.origin !== origin) return next;
    url = next.href;
  }
  throw new Error('too many redirects at the provider');
}
