// What the two local OpenID providers of the tests (oidc-idp.mjs, nhs-login-idp.mjs) share: their key,
// their accounts (any login), their consent (given once asked: the tests sign in, they do not consent),
// the re-signing of an ID token they change, and the server answering a test's own requests first.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import * as jose from 'jose';

/** A fresh RSA signing key as the provider's JWK. */
export function signingKey(kid, alg) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg };
}

/** oidc-provider's `findAccount`: every login is an account, with the claims `claimsOf(login)`. */
export const anyLogin = (claimsOf) => async (_ctx, id) => ({ accountId: id, claims: async () => claimsOf(id) });

/** oidc-provider's `loadExistingGrant`: `scope` granted without asking. */
export const granted = (scope) => async (ctx) => {
  const grant = new ctx.oidc.provider.Grant({
    clientId: ctx.oidc.client.clientId,
    accountId: ctx.oidc.session.accountId,
  });
  grant.addOIDCScope(scope);
  await grant.save();
  return grant;
};

/** An ID token of these claims, signed with the provider's own key. */
export async function signedIdToken(claims, jwk) {
  const key = await jose.importJWK(jwk, jwk.alg);
  return new jose.SignJWT(claims).setProtectedHeader({ alg: jwk.alg, kid: jwk.kid }).sign(key);
}

/** Serves the provider on `port`; `testRoute(req, res)` answers a test's own requests first (true when it did). */
export function serve(provider, port, testRoute) {
  const callback = provider.callback();
  createServer((req, res) => {
    if (!testRoute(req, res)) callback(req, res);
  }).listen(port, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${port}`));
}
