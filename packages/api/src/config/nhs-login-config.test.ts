import { describe, expect, it } from 'bun:test';
import { generateKeyPairSync } from 'node:crypto';
import { loadConfig } from './config.ts';

const live = {
  NODE_ENV: 'production',
  SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
  SMTP_URL: 'smtp://mail.example.test:587',
  PUBLIC_URL: 'https://lockers.example.test',
};
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
const nhs = {
  NHS_LOGIN_ISSUER: 'https://auth.sandpit.signin.nhs.uk/',
  NHS_LOGIN_CLIENT_ID: 'medlocker',
  NHS_LOGIN_PRIVATE_KEY: String(pem),
};

const problem = (env: Record<string, string>, readFile?: (path: string) => string) => {
  try {
    loadConfig(env, '/', readFile);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

describe('NHS login configuration', () => {
  it('is off without NHS_LOGIN_*, and read with all three (the issuer without its trailing slash)', () => {
    expect(loadConfig(live).nhsLogin).toBeUndefined();
    expect(loadConfig({ ...live, ...nhs }).nhsLogin).toEqual({
      issuer: 'https://auth.sandpit.signin.nhs.uk',
      clientId: 'medlocker',
      privateKeyPem: String(pem).trim(),
    });
  });

  it('reads the private key from NHS_LOGIN_PRIVATE_KEY_FILE', () => {
    const { NHS_LOGIN_PRIVATE_KEY: _, ...rest } = nhs;
    const c = loadConfig({ ...live, ...rest, NHS_LOGIN_PRIVATE_KEY_FILE: '/run/secrets/nhs' }, '/', (path) =>
      path === '/run/secrets/nhs' ? String(pem) : '',
    );
    expect(c.nhsLogin?.privateKeyPem).toBe(String(pem).trim());
  });

  it('refuses to start with half a configuration, naming each missing variable', () => {
    const message = problem({ ...live, NHS_LOGIN_ISSUER: nhs.NHS_LOGIN_ISSUER });
    expect(message).toContain('NHS_LOGIN_CLIENT_ID: must be set with NHS_LOGIN_ISSUER');
    expect(message).toContain('NHS_LOGIN_PRIVATE_KEY: must be set with NHS_LOGIN_ISSUER');
    expect(problem({ NHS_LOGIN_CLIENT_ID: 'x', NHS_LOGIN_PRIVATE_KEY: String(pem) })).toContain(
      'NHS_LOGIN_ISSUER: must be set',
    );
  });

  it('refuses a key that is not an RSA private key, and a plain http issuer in production', () => {
    expect(problem({ ...live, ...nhs, NHS_LOGIN_PRIVATE_KEY: 'secret' })).toContain(
      'NHS_LOGIN_PRIVATE_KEY: is not an RSA private key',
    );
    const http = { ...nhs, NHS_LOGIN_ISSUER: 'http://127.0.0.1:9000' };
    expect(problem({ ...live, ...http })).toContain('NHS_LOGIN_ISSUER:');
    expect(loadConfig(http).nhsLogin?.issuer).toBe('http://127.0.0.1:9000');
  });
});
