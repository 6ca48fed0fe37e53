import { describe, expect, it } from 'bun:test';
import { ConfigError, DEV_ADMIN_PASSWORD, loadConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to port 3000, PGlite in ./data and the printed development admin password', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('/srv/app/data');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.seedAdminPassword).toBe(DEV_ADMIN_PASSWORD);
    expect(c.productName).toBe('MedLocker');
  });

  it('reads PORT, DATA_DIR and DATABASE_URL, ignoring empty values', () => {
    const c = loadConfig({ PORT: '8080', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db', SMTP_URL: '' }, '/');
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.databaseUrl).toBe('postgres://u@h/db');
    expect(c.smtpUrl).toBeUndefined();
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SEED_ADMIN_PASSWORD: 'short' })).toThrow(/SEED_ADMIN_PASSWORD/);
    expect(() => loadConfig({ ALLOW_REGISTRATION: 'yes' })).toThrow(/ALLOW_REGISTRATION/);
  });

  it('never seeds a default password in production', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedAdminPassword).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_ADMIN_EMAIL: 'a@b.co' })).toThrow(/SEED_ADMIN_PASSWORD/);
    const c = loadConfig({
      NODE_ENV: 'production',
      SEED_ADMIN_EMAIL: 'a@b.co',
      SEED_ADMIN_PASSWORD: 'a-long-secret-9',
    });
    expect(c.seedAdminPassword).toBe('a-long-secret-9');
  });
});
