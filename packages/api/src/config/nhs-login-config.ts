import { createPrivateKey } from 'node:crypto';
import { type Env, invalid } from './config-env.ts';

/**
 * NHS login for patients (areas/auth/nhs-login.ts): the provider's issuer (NHS_LOGIN_ISSUER, e.g.
 * https://auth.login.nhs.uk, or the integration environment's), the client id NHS login gave us
 * (NHS_LOGIN_CLIENT_ID) and the private key of the key pair whose public half is registered with it
 * (NHS_LOGIN_PRIVATE_KEY, an RSA key in PEM, or NHS_LOGIN_PRIVATE_KEY_FILE naming a file holding it):
 * NHS login takes `private_key_jwt` client authentication only. All three or none: unset, no business
 * can switch NHS login on.
 */
export type NhsLoginConfig = { issuer: string; clientId: string; privateKeyPem: string };

const variables = ['NHS_LOGIN_ISSUER', 'NHS_LOGIN_CLIENT_ID', 'NHS_LOGIN_PRIVATE_KEY'] as const;

/** The NHS login settings, or undefined when none is set; a half or broken configuration is refused. */
export function nhsLoginOf(env: Env, production: boolean): NhsLoginConfig | undefined {
  const given = variables.filter((name) => env[name] !== undefined);
  if (given.length === 0) return undefined;
  const problems = variables
    .filter((name) => env[name] === undefined)
    .map(
      (name) =>
        `  ${name}: must be set with ${given.join(', ')} (NHS login needs its issuer, client id and private key)`,
    );
  const issuer = env.NHS_LOGIN_ISSUER?.replace(/\/+$/, '');
  if (issuer && !URL.canParse(issuer)) problems.push(`  NHS_LOGIN_ISSUER: '${issuer}' is not a URL`);
  else if (issuer && production && new URL(issuer).protocol !== 'https:')
    problems.push(`  NHS_LOGIN_ISSUER: '${issuer}' must be https in production`);
  const pem = env.NHS_LOGIN_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (pem && !isRsaPrivateKey(pem))
    problems.push('  NHS_LOGIN_PRIVATE_KEY: is not an RSA private key in PEM (-----BEGIN PRIVATE KEY-----)');
  if (problems.length > 0) throw invalid(problems.join('\n'));
  return { issuer: issuer as string, clientId: env.NHS_LOGIN_CLIENT_ID as string, privateKeyPem: pem as string };
}

function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}
