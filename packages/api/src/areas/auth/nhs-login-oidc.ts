import { createPrivateKey } from 'node:crypto';
import { nhsLoginScopes, nhsLoginVectorsOfTrust } from '@medlocker/core';
import * as client from 'openid-client';
import type { NhsLoginConfig } from '../../config/nhs-login-config.ts';

/*
 * NHS login's side of the OpenID Connect code flow, with openid-client v6: discovery at the configured
 * issuer, `private_key_jwt` client authentication (the client assertion signed RS512 with
 * NHS_LOGIN_PRIVATE_KEY; NHS login takes no client secret), `state`, `nonce` and PKCE (S256), ID tokens
 * signed RS512 (anything else is refused by the library), and the vectors of trust asked for in `vtr`.
 * The issuer is the operator's setting, not typed by staff: plain http is allowed only outside
 * production (the configuration refuses it there), for the tests' local provider.
 */

const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 5;
let cached: { key: string; at: number; config: client.Configuration } | undefined;

/** NHS login could not be reached (discovery, token endpoint): the patient is told to try later. */
export class NhsLoginUnreachable extends Error {}

async function signingKey(pem: string): Promise<CryptoKey> {
  const der = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
  return crypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' }, false, ['sign']);
}

async function configuration(settings: NhsLoginConfig): Promise<client.Configuration> {
  const key = `${settings.issuer} ${settings.clientId}`;
  if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const issuer = new URL(settings.issuer);
  let config: client.Configuration;
  try {
    config = await client.discovery(
      issuer,
      settings.clientId,
      { id_token_signed_response_alg: 'RS512', token_endpoint_auth_method: 'private_key_jwt' },
      client.PrivateKeyJwt(await signingKey(settings.privateKeyPem)),
      { execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [], timeout: TIMEOUT_SECONDS },
    );
  } catch (error) {
    throw new NhsLoginUnreachable(`NHS login discovery at ${issuer.origin} failed: ${messageOf(error)}`);
  }
  cached = { key, at: Date.now(), config };
  return config;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the callback needs to finish: kept in `nhs_logins`, never given to the browser. */
export type NhsLoginStart = { url: string; state: string; nonce: string; codeVerifier: string };

export async function startNhsLoginAt(settings: NhsLoginConfig, redirectUri: string): Promise<NhsLoginStart> {
  const config = await configuration(settings);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: nhsLoginScopes,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    vtr: JSON.stringify(nhsLoginVectorsOfTrust),
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/** Who NHS login says signed in: the vector of trust from the ID token, the NHS number and birth date. */
export type NhsLoginIdentity = { subject: string; vot: string; nhsNumber: string | null; birthdate: string | null };

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * Exchanges the code (PKCE verifier, private_key_jwt) and checks the ID token (issuer, audience,
 * expiry, nonce, RS512 signature); `nhs_number` and `birthdate` are read from the ID token, else from
 * userinfo (NHS login gives them there). Throws NhsLoginUnreachable when NHS login cannot be reached,
 * any other error for a response that fails a check.
 */
export async function completeNhsLoginAt(
  settings: NhsLoginConfig,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<NhsLoginIdentity> {
  const config = await configuration(settings);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    if (isUnreachable(error)) throw new NhsLoginUnreachable(messageOf(error));
    throw error;
  }
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('NHS login sent no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  if (claims.nhs_number === undefined && tokens.access_token) {
    const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    // The signed ID token's claims win over userinfo's; the vector of trust is the ID token's alone.
    claims = { ...info, ...idClaims };
  }
  return {
    subject: idClaims.sub,
    vot: text(idClaims.vot) ?? '',
    nhsNumber: text(claims.nhs_number),
    birthdate: text(claims.birthdate),
  };
}

/** A network failure, as opposed to a response that failed a check. */
function isUnreachable(error: unknown): boolean {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) return false;
  const cause = (error as { cause?: { code?: string } })?.cause;
  return (
    error instanceof TypeError ||
    /fetch failed|ECONNREFUSED|Unable to connect|timed out|aborted/i.test(messageOf(error)) ||
    /^(E[A-Z]+|ConnectionRefused|ConnectionClosed|FailedToOpenSocket)$/.test(cause?.code ?? '')
  );
}
