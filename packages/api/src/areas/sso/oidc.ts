import * as client from 'openid-client';
import type { AppDeps } from '../../context/deps.ts';
import { clientSecretOf, type ProviderRecord, scopesOf, storedConfiguration } from './config.ts';
import {
  checkProviderUrl,
  PROVIDER_FETCH_TIMEOUT_MS,
  ProviderProblem,
  providerFetch,
  providerPolicy,
} from './provider-fetch.ts';

export { ProviderProblem };

/*
 * OpenID Connect with openid-client v6: discovery, the authorization code flow with
 * `state`, `nonce` and PKCE (S256), and the ID token's checks (issuer, audience, expiry, nonce,
 * signature), all done by the library. Every request (discovery, token, keys, userinfo) goes through
 * providerFetch: https to a public address only, 5 s, 1 MB (sso/provider-fetch.ts); plain http to a
 * loopback address (a developer's Keycloak, the tests' oidc-provider) only with SSO_ALLOW_HTTP_LOOPBACK=1.
 */

const DISCOVERY_TTL_MS = 10 * 60_000;
const cache = new Map<string, { at: number; config: client.Configuration }>();

function words(error: unknown): string {
  if (error instanceof client.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: string } | undefined)?.code;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** Runs discovery (cached for 10 minutes per provider version) and gives the client configuration. */
export async function oidcConfiguration(
  deps: Pick<AppDeps, 'config'>,
  row: ProviderRecord,
  options: { fresh?: boolean } = {},
): Promise<client.Configuration> {
  const key = `${row.id}:${row.updated}`;
  const hit = cache.get(key);
  if (hit && !options.fresh && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const c = storedConfiguration(row);
  if (!c.issuerUrl || !URL.canParse(c.issuerUrl)) throw new ProviderProblem('The issuer URL is not a valid URL');
  if (!c.clientId) throw new ProviderProblem('The client id is missing');
  const issuer = new URL(c.issuerUrl);
  const policy = providerPolicy(deps.config);
  // Said before discovery (whose errors openid-client words its own way); checked again at every fetch.
  await checkProviderUrl(issuer.href, policy).catch((error: unknown) => {
    throw new ProviderProblem(`The issuer URL is refused: ${error instanceof Error ? error.message : String(error)}`);
  });
  const secret = clientSecretOf(deps, row);
  let config: client.Configuration;
  try {
    config = await client.discovery(
      issuer,
      c.clientId,
      secret ? { client_secret: secret } : undefined,
      secret ? client.ClientSecretPost(secret) : client.None(),
      {
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: PROVIDER_FETCH_TIMEOUT_MS / 1000,
        [client.customFetch]: providerFetch(policy) as client.CustomFetch,
      },
    );
  } catch (error) {
    throw new ProviderProblem(`Discovery at ${issuer.origin} failed: ${words(error)}`);
  }
  cache.set(key, { at: Date.now(), config });
  return config;
}

/** What the callback needs to finish a sign-in: kept in `sso_logins`, never given to the browser. */
export type OidcStart = { url: string; state: string; nonce: string; codeVerifier: string };

export async function startOidc(
  deps: Pick<AppDeps, 'config'>,
  row: ProviderRecord,
  redirectUri: string,
  loginHint: string,
): Promise<OidcStart> {
  const config = await oidcConfiguration(deps, row);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopesOf(storedConfiguration(row).scopes),
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: loginHint,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/** Who the provider says signed in, with the claims the mapping names. */
export type OidcIdentity = {
  subject: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  /** The ID token's `amr` (RFC 8176: how the person proved who they are at the provider), if it says. */
  authMethods: string[];
};

/**
 * Exchanges the code (with the PKCE verifier) and checks the ID token; throws ProviderProblem for a
 * provider that cannot be reached and `client` errors for a response that fails a check.
 */
export async function completeOidc(
  deps: Pick<AppDeps, 'config'>,
  row: ProviderRecord,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<OidcIdentity> {
  const config = await oidcConfiguration(deps, row);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new ProviderProblem('The provider sent no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  const mapping = storedConfiguration(row).claims;
  const emailClaim = mapping.email || 'email';
  if (claims[emailClaim] === undefined && tokens.access_token) {
    // Some providers (Okta's org server, Keycloak with a slim token) keep the email for userinfo.
    const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    claims = { ...info, ...claims };
  }
  const verified = claims[mapping.emailVerified || 'email_verified'];
  const amr = Array.isArray(idClaims.amr) ? idClaims.amr : [];
  return {
    authMethods: amr.filter((m): m is string => typeof m === 'string' && m.length <= 100).slice(0, 10),
    subject: idClaims.sub,
    email: typeof claims[emailClaim] === 'string' ? (claims[emailClaim] as string) : '',
    emailVerified: verified === true || verified === 'true',
    givenName:
      typeof claims[mapping.givenName || 'given_name'] === 'string'
        ? (claims[mapping.givenName || 'given_name'] as string)
        : '',
    familyName:
      typeof claims[mapping.familyName || 'family_name'] === 'string'
        ? (claims[mapping.familyName || 'family_name'] as string)
        : '',
  };
}

/** Problems of a provider's OIDC set-up, in words (the `test` method). */
export async function checkOidc(
  deps: Pick<AppDeps, 'config'>,
  row: ProviderRecord,
): Promise<{ check: string; ok: boolean; message: string }[]> {
  const checks: { check: string; ok: boolean; message: string }[] = [];
  const c = storedConfiguration(row);
  checks.push(
    c.clientId
      ? { check: 'Client id', ok: true, message: 'Set' }
      : { check: 'Client id', ok: false, message: 'The client id is missing' },
  );
  checks.push(
    clientSecretOf(deps, row)
      ? { check: 'Client secret', ok: true, message: 'Set' }
      : { check: 'Client secret', ok: true, message: 'None: a public client (PKCE only)' },
  );
  try {
    const config = await oidcConfiguration(deps, row, { fresh: true });
    const meta = config.serverMetadata();
    checks.push({ check: 'Discovery', ok: true, message: `Found issuer ${meta.issuer}` });
    const methods = meta.code_challenge_methods_supported;
    checks.push(
      methods && !methods.includes('S256')
        ? { check: 'PKCE', ok: false, message: 'The provider does not offer PKCE with S256' }
        : { check: 'PKCE', ok: true, message: 'S256 offered' },
    );
    const scopes = scopesOf(c.scopes).split(' ');
    const missing = meta.scopes_supported ? scopes.filter((s) => !meta.scopes_supported?.includes(s)) : [];
    checks.push(
      missing.length
        ? { check: 'Scopes', ok: false, message: `The provider does not offer: ${missing.join(', ')}` }
        : { check: 'Scopes', ok: true, message: scopes.join(' ') },
    );
  } catch (error) {
    checks.push({ check: 'Discovery', ok: false, message: error instanceof Error ? error.message : String(error) });
  }
  return checks;
}
