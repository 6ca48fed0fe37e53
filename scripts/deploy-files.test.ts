import { describe, expect, it } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_VARIABLES } from '../packages/api/src/config/config.ts';

/**
 * What an operator deploys from (Dockerfile, compose.yaml, .env.example, deploy/haproxy.cfg), read as
 * text: no Docker engine runs here, so what can be checked without one is checked.
 */
const root = join(import.meta.dir, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const configSource = read('packages/api/src/config/config-env.ts');
/** The server's variables, as config-env.ts declares them. */
const serverVariables = [...configSource.matchAll(/^ {2}'([A-Z][A-Z0-9_]+)\?':/gm)].map((m) => m[1] as string);

describe('the deployment files', () => {
  it('builds from a supported Node.js, pinned by version, and runs as a user other than root', () => {
    const dockerfile = read('Dockerfile');
    const bases = [...dockerfile.matchAll(/^FROM node:(\d+)\.(\d+)\.(\d+)-/gm)];
    expect(bases.length).toBe(2);
    for (const base of bases) expect(Number(base[1])).toBeGreaterThanOrEqual(22);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('org.opencontainers.image.version');
    expect(dockerfile).toContain('org.opencontainers.image.revision');
  });

  it('keeps secrets, local state, tests, benches, docs and source maps out of the image and of git', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', '.locker-sim', 'secrets', 'bench', 'e2e', 'docs', '**/*.map']) {
      expect(ignored).toContain(entry);
    }
    const gitignored = read('.gitignore').split('\n');
    // The root's secrets/ only (compose's secret files): packages/api/src/secrets/ is source.
    for (const entry of ['.env', '.locker-sim/', '/secrets/']) expect(gitignored).toContain(entry);
  });

  it('gives compose every server setting: in .env (from .env.example), as a secret file, or set in compose.yaml', () => {
    const compose = read('compose.yaml');
    const example = read('.env.example');
    const missing = serverVariables.filter(
      (name) =>
        !new RegExp(`^${name}=`, 'm').test(example) &&
        !compose.includes(`${name}:`) &&
        !compose.includes(`${name}_FILE:`) &&
        // Development and test switches have no place in a deployment.
        !['SSO_ALLOW_HTTP_LOOPBACK', 'HOST', 'DATA_DIR'].includes(name),
    );
    expect(missing).toEqual([]);
  });

  it('has no default password in compose.yaml, and reads its secrets from files', () => {
    const compose = read('compose.yaml');
    expect(compose).not.toMatch(/PASSWORD[^\n]*:-/);
    expect(compose).not.toMatch(/SECRETS_KEY:\s*\$\{/);
    for (const name of ['SECRETS_KEY', 'DATABASE_URL', 'SMTP_URL', 'SEED_ADMIN_PASSWORD']) {
      expect(SECRET_VARIABLES).toContain(name as (typeof SECRET_VARIABLES)[number]);
      expect(compose).toContain(`${name}_FILE: /run/secrets/`);
    }
    expect(compose).toContain('max-size');
    expect(compose).toMatch(/^ {2}worker:\n {4}<<: \*app/m);
  });

  it("sets X-Forwarded-For to the client's address and checks readiness in both HAProxy configurations", () => {
    const deployed = read('deploy/haproxy.cfg');
    const generated = read('scripts/cluster.mjs');
    for (const config of [deployed, generated]) {
      expect(config).toContain('http-request set-header X-Forwarded-For %[src]');
      expect(config).not.toMatch(/^\s*option forwardfor/m);
      expect(config).toContain('uri /readyz');
      expect(config).toContain('option redispatch');
    }
  });

  const haproxy = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((path) => existsSync(path));
  it.skipIf(!haproxy)('has a deploy/haproxy.cfg that HAProxy accepts', () => {
    const checked = spawnSync(haproxy as string, ['-c', '-f', join(root, 'deploy/haproxy.cfg')], { encoding: 'utf8' });
    expect(checked.status).toBe(0);
  });
});
