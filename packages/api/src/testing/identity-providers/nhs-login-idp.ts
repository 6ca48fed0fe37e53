import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../cluster/free-port.ts';

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
  const port = await freePort();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientId = 'medlocker-nhs-login-test';
  const client = {
    client_id: clientId,
    redirect_uris: [redirectUri],
    jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS512' }] },
  };
  const script = fileURLToPath(new URL('./nhs-login-idp.mjs', import.meta.url));
  const child = spawn('node', [script, String(port), JSON.stringify(client)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => {
    errors += String(d);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the test NHS login did not start: ${errors}`)), 15_000);
    child.stdout.on('data', (d) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the test NHS login exited (${code}): ${errors}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    clientId,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    lastVtr: async () => ((await (await fetch(`${issuer}/test/last-vtr`)).json()) as { vtr: string | null }).vtr,
    stop: () => child.kill(),
  };
}
