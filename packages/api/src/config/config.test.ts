import { describe, expect, it } from 'bun:test';
import { KeyRing, ringOf } from '../secrets/key-ring.ts';
import { ConfigError, DEV_ADMIN_PASSWORD, DEV_SECRETS_SEED, loadConfig } from './config.ts';

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

  it('reads METRICS_TOKEN: 16 to 256 printable characters, unset by default', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe('a-long-enough-token');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'x'.repeat(257) })).toThrow(/METRICS_TOKEN/);
  });

  it('reads the message gateways, defaulting each API address to the provider’s own', () => {
    const d = loadConfig({}).gateways;
    expect(d.smsWorks).toEqual({ jwt: undefined, apiUrl: 'https://api.thesmsworks.co.uk' });
    expect(d.messageBird.apiUrl).toBe('https://rest.messagebird.com');
    expect(d.whatsApp.apiUrl).toBe('https://graph.facebook.com/v21.0');
    expect(d.awsSms).toEqual({ region: undefined, endpoint: undefined, configurationSet: undefined });
    const c = loadConfig({
      SMSWORKS_JWT: 'JWT x',
      SMSWORKS_API_URL: 'http://127.0.0.1:9000/',
      AWS_REGION: 'eu-west-2',
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: 'http://127.0.0.1:9001',
      WHATSAPP_PHONE_NUMBER_ID: '1065',
    }).gateways;
    expect(c.smsWorks).toEqual({ jwt: 'JWT x', apiUrl: 'http://127.0.0.1:9000' });
    expect(c.awsSms).toMatchObject({ region: 'eu-west-2', endpoint: 'http://127.0.0.1:9001' });
    expect(() => loadConfig({ SMSWORKS_API_URL: 'api.thesmsworks.co.uk' })).toThrow(/SMSWORKS_API_URL/);
    expect(() => loadConfig({ AWS_REGION: 'London' })).toThrow(/AWS_REGION/);
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '+44 7700' })).toThrow(/WHATSAPP_PHONE_NUMBER_ID/);
    expect(() => loadConfig({ WHATSAPP_VERIFY_TOKEN: 'short' })).toThrow(/WHATSAPP_VERIFY_TOKEN/);
  });

  it('reads Judopay’s addresses (sandbox and live by default) and its webhook credential, both parts or none', () => {
    expect(loadConfig({}).judopay).toEqual({
      local: true,
      apiUrl: 'https://api-sandbox.judopay.com',
      liveApiUrl: 'https://api.judopay.com',
      webhook: undefined,
    });
    const set = loadConfig({
      JUDOPAY_API_URL: 'http://127.0.0.1:4100/',
      JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:4101',
      JUDOPAY_WEBHOOK_USER: 'judo',
      JUDOPAY_WEBHOOK_PASSWORD: 'long-enough',
    }).judopay;
    expect(set).toEqual({
      local: false,
      apiUrl: 'http://127.0.0.1:4100',
      liveApiUrl: 'http://127.0.0.1:4101',
      webhook: { user: 'judo', password: 'long-enough' },
    });
    expect(() => loadConfig({ JUDOPAY_WEBHOOK_USER: 'judo' })).toThrow(
      /JUDOPAY_WEBHOOK_USER, JUDOPAY_WEBHOOK_PASSWORD/,
    );
    expect(() => loadConfig({ JUDOPAY_API_URL: 'api.judopay.com' })).toThrow(/JUDOPAY_API_URL/);
  });

  it('serves sandbox payments from a local Judopay outside production unless told otherwise, never in production', () => {
    expect(loadConfig({}).judopay.local).toBe(true);
    expect(loadConfig({ JUDOPAY_LOCAL: '0' }).judopay.local).toBe(false);
    // A Judopay named by the operator is used, unless the local one is asked for as well.
    expect(loadConfig({ JUDOPAY_API_URL: 'https://api-sandbox.judopay.com' }).judopay.local).toBe(false);
    expect(loadConfig({ JUDOPAY_API_URL: 'http://127.0.0.1:4100', JUDOPAY_LOCAL: '1' }).judopay.local).toBe(true);
    expect(() => loadConfig({ JUDOPAY_LOCAL: 'yes' })).toThrow(/JUDOPAY_LOCAL/);
    expect(loadConfig(live).judopay.local).toBe(false);
    expect(() => loadConfig({ ...live, JUDOPAY_LOCAL: '1' })).toThrow(
      /JUDOPAY_LOCAL: a local Judopay takes no real payments and is for development only/,
    );
  });

  it('reads TRUST_PROXY as addresses, ranges and named ranges, refusing what is none of these', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' loopback, 10.0.0.0/8 ,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'my-proxy.local' })).toThrow(/TRUST_PROXY: invalid IP address/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it('logs at info unless LOG_LEVEL says trace, debug, warn or error, and stops on any other level', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: 'trace' }).logLevel).toBe('trace');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });

  it('commits locker readings fast unless READINGS_COMMIT=durable', () => {
    expect(loadConfig({}).readingsCommit).toBe('fast');
    expect(loadConfig({ READINGS_COMMIT: 'durable' }).readingsCommit).toBe('durable');
    expect(() => loadConfig({ READINGS_COMMIT: 'sync' })).toThrow(/READINGS_COMMIT/);
  });

  it('runs 16 background jobs at once unless JOBS_CONCURRENCY says otherwise (1–256)', () => {
    expect(loadConfig({}).jobsConcurrency).toBe(16);
    expect(loadConfig({ JOBS_CONCURRENCY: '32' }).jobsConcurrency).toBe(32);
    expect(() => loadConfig({ JOBS_CONCURRENCY: '0' })).toThrow(/JOBS_CONCURRENCY/);
    expect(() => loadConfig({ JOBS_CONCURRENCY: 'many' })).toThrow(/JOBS_CONCURRENCY/);
  });

  it('tells staff of a message without word after 30 minutes unless MESSAGES_UNDELIVERED_ALERT_MINUTES says otherwise', () => {
    expect(loadConfig({}).messagesUndeliveredAlertMs).toBe(30 * 60_000);
    expect(loadConfig({ MESSAGES_UNDELIVERED_ALERT_MINUTES: '5' }).messagesUndeliveredAlertMs).toBe(5 * 60_000);
    expect(() => loadConfig({ MESSAGES_UNDELIVERED_ALERT_MINUTES: '0' })).toThrow(/MESSAGES_UNDELIVERED_ALERT_MINUTES/);
  });

  it('gives an unconfirmed message 600 s for its report unless MESSAGES_UNCONFIRMED_GRACE_SECONDS says otherwise', () => {
    expect(loadConfig({}).messagesUnconfirmedGraceMs).toBe(600_000);
    expect(loadConfig({ MESSAGES_UNCONFIRMED_GRACE_SECONDS: '5' }).messagesUnconfirmedGraceMs).toBe(5_000);
    expect(() => loadConfig({ MESSAGES_UNCONFIRMED_GRACE_SECONDS: '0' })).toThrow(/MESSAGES_UNCONFIRMED_GRACE_SECONDS/);
    expect(() => loadConfig({ MESSAGES_UNCONFIRMED_GRACE_SECONDS: 'soon' })).toThrow(
      /MESSAGES_UNCONFIRMED_GRACE_SECONDS/,
    );
  });

  it("runs the hub's hot statements prepared unless DATABASE_PREPARED_STATEMENTS=off", () => {
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  /** What production needs to start: its own secrets key, a mail server and its https address. */
  const live = {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    SMTP_URL: 'smtp://mail.example.test:587',
    PUBLIC_URL: 'https://lockers.example.test',
  };

  it('hashes passwords at the standard argon2id cost everywhere but under NODE_ENV=test', () => {
    expect(loadConfig(live).passwordHashing).toBe('standard');
    expect(loadConfig({ NODE_ENV: 'development' }).passwordHashing).toBe('standard');
    expect(loadConfig({}).passwordHashing).toBe('standard');
    expect(loadConfig({ NODE_ENV: 'test' }).passwordHashing).toBe('test');
  });

  it('never seeds a default password in production', () => {
    expect(loadConfig(live).seedAdminPassword).toBeUndefined();
    expect(() => loadConfig({ ...live, SEED_ADMIN_EMAIL: 'a@b.co' })).toThrow(/SEED_ADMIN_PASSWORD/);
    const c = loadConfig({
      ...live,
      SEED_ADMIN_EMAIL: 'a@b.co',
      SEED_ADMIN_PASSWORD: 'a-long-secret-9',
    });
    expect(c.seedAdminPassword).toBe('a-long-secret-9');
  });

  describe('production refuses to start unsafe', () => {
    const without = (name: keyof typeof live) => Object.fromEntries(Object.entries(live).filter(([k]) => k !== name));

    it('starts with its own secrets key, a mail server and an https address', () => {
      const c = loadConfig(live);
      expect(c.production).toBe(true);
      expect(c.smtpUrl).toBe(live.SMTP_URL);
      expect(c.publicUrls).toEqual([live.PUBLIC_URL]);
    });

    it('refuses without SMTP_URL: staff mail would go to a mailbox every support user can read', () => {
      expect(() => loadConfig(without('SMTP_URL'))).toThrow(/SMTP_URL: must be set in production/);
      expect(loadConfig({ ...without('SMTP_URL'), NODE_ENV: 'development' }).smtpUrl).toBeUndefined();
    });

    it("refuses without PUBLIC_URL: patients' links would name no real address", () => {
      expect(() => loadConfig(without('PUBLIC_URL'))).toThrow(/PUBLIC_URL: must be set in production/);
    });

    it('refuses a PUBLIC_URL that is not https', () => {
      expect(() => loadConfig({ ...live, PUBLIC_URL: 'http://localhost:8080' })).toThrow(
        /PUBLIC_URL: 'http:\/\/localhost:8080' must be https in production/,
      );
      expect(() => loadConfig({ ...live, PUBLIC_URL: 'https://a.example.test,http://b.example.test' })).toThrow(
        /'http:\/\/b.example.test' must be https/,
      );
      expect(loadConfig({ ...live, NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:8080' }).publicUrls).toEqual([
        'http://localhost:8080',
      ]);
    });

    it('refuses the development secrets key', () => {
      const devKey = Buffer.from(new Bun.CryptoHasher('sha256').update(DEV_SECRETS_SEED).digest()).toString('base64');
      expect(() => loadConfig({ ...live, SECRETS_KEY: devKey })).toThrow(/SECRETS_KEY: is the development key/);
    });

    it('names every missing variable at once', () => {
      const error = (() => {
        try {
          loadConfig({ NODE_ENV: 'production', SECRETS_KEY: live.SECRETS_KEY });
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })();
      expect(error).toContain('SMTP_URL:');
      expect(error).toContain('PUBLIC_URL:');
    });
  });

  describe('secrets from files (container secrets)', () => {
    const files: Record<string, string> = {
      '/run/secrets/key': `${live.SECRETS_KEY}\n`,
      '/run/secrets/smtp': 'smtp://user:pw@mail.example.test:587\n',
    };
    const read = (path: string) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return text;
    };

    it('reads a secret from the file its _FILE variable names, without the trailing line break', () => {
      const { SECRETS_KEY: _key, SMTP_URL: _smtp, ...rest } = live;
      const c = loadConfig(
        { ...rest, SECRETS_KEY_FILE: '/run/secrets/key', SMTP_URL_FILE: '/run/secrets/smtp' },
        '/',
        read,
      );
      expect(c.secretsKey.current.id).toBe(new KeyRing([new Uint8Array(32).fill(1)]).current.id);
      expect(c.smtpUrl).toBe('smtp://user:pw@mail.example.test:587');
    });

    it('refuses a secret given twice, or a file it cannot read, naming the variable', () => {
      expect(() => loadConfig({ ...live, SECRETS_KEY_FILE: '/run/secrets/key' }, '/', read)).toThrow(
        /SECRETS_KEY_FILE: set SECRETS_KEY or SECRETS_KEY_FILE, not both/,
      );
      const { SMTP_URL: _smtp, ...rest } = live;
      expect(() => loadConfig({ ...rest, SMTP_URL_FILE: '/run/secrets/nope' }, '/', read)).toThrow(
        /SMTP_URL_FILE: cannot read \/run\/secrets\/nope \(ENOENT\)/,
      );
    });
  });

  describe('SECRETS_KEY', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const prod = { NODE_ENV: 'production', SMTP_URL: live.SMTP_URL, PUBLIC_URL: live.PUBLIC_URL };

    it('reads 32 bytes of base64', () => {
      const c = loadConfig({ ...prod, SECRETS_KEY: key });
      expect(c.secretsKey.keys.map((k) => k.id)).toEqual([ringOf(Buffer.alloc(32, 7)).current.id]);
      expect(c.secretsKeyIsDevDefault).toBe(false);
    });

    it('reads a ring of keys separated by commas during a rotation, the first sealing', () => {
      const old = Buffer.alloc(32, 8).toString('base64');
      const c = loadConfig({ ...prod, SECRETS_KEY: `${key}, ${old}` });
      expect(c.secretsKey.keys.map((k) => k.id)).toEqual([
        ringOf(Buffer.alloc(32, 7)).current.id,
        ringOf(Buffer.alloc(32, 8)).current.id,
      ]);
      expect(() => loadConfig({ ...prod, SECRETS_KEY: `${key},${key}` })).toThrow(
        /SECRETS_KEY: holds the same key twice/,
      );
      expect(() => loadConfig({ ...prod, SECRETS_KEY: `${key},short` })).toThrow(
        /SECRETS_KEY: key 2 must be 32 bytes in base64, not 3/,
      );
      expect(() => loadConfig({ ...prod, SECRETS_KEY: ' , ' })).toThrow(/SECRETS_KEY: holds no key/);
    });

    it('is required in production', () => {
      expect(() => loadConfig(prod)).toThrow(/SECRETS_KEY: must be set in production/);
    });

    it('stops on a key that is not 32 bytes of base64', () => {
      expect(() => loadConfig({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
        /SECRETS_KEY: must be 32 bytes in base64, not 16/,
      );
      expect(() => loadConfig({ SECRETS_KEY: 'not base64!' })).toThrow(/SECRETS_KEY: must be base64/);
    });

    it('derives the development key outside production', () => {
      const c = loadConfig({ NODE_ENV: 'test' });
      const expected = new Bun.CryptoHasher('sha256').update(DEV_SECRETS_SEED).digest();
      expect(c.secretsKey.current.id).toBe(ringOf(new Uint8Array(expected)).current.id);
      expect(c.secretsKeyIsDevDefault).toBe(true);
    });
  });
});
