import { generateKeyPairSync } from 'node:crypto';
import { startNodeProvider } from './node-provider.ts';

/** The local NHS login of the tests, and the client's settings for NHS_LOGIN_*. */
export type NhsLoginIdp = {
  issuer: string;
  clientId: string;
  /** The client's private key (PEM); its public half is registered with the provider. */
  privateKeyPem: string;
  /** The `vtr` of the last authorization request. */
  lastVtr(): Promise<string | null>;
  stop(): void;
};

/**
 * Starts nhs-login-idp.mjs under Node (Bun does not run oidc-provider) with one private_key_jwt client
 * whose redirect URI is `redirectUri`; resolves once it listens.
 */
export async function startNhsLoginIdp(redirectUri: string): Promise<NhsLoginIdp> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientId = 'medlocker-nhs-login-test';
  const client = {
    client_id: clientId,
    redirect_uris: [redirectUri],
    jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS512' }] },
  };
  const { issuer, stop } = await startNodeProvider('./nhs-login-idp.mjs', client, 'the test NHS login');
  return {
    issuer,
    clientId,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    lastVtr: async () => ((await (await fetch(`${issuer}/test/last-vtr`)).json()) as { vtr: string | null }).vtr,
    stop,
  };
}
