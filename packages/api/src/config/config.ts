import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import proxyaddr from 'proxy-addr';
import { KeyRing } from '../secrets/key-ring.ts';
import { ConfigError, type Env, invalid, readEnv } from './config-env.ts';
import { type NhsLoginConfig, nhsLoginOf } from './nhs-login-config.ts';

export { SECRET_VARIABLES } from './config-env.ts';
export { ConfigError };

/**
 * The argon2id cost of new hashes (a hash carries its own cost, so verifying follows the hash). `standard`
 * is Bun.password's default (64 MiB, 2 passes: hundreds of milliseconds on a loaded 2-core machine), used
 * everywhere but tests. `test` (1 MiB, 1 pass: about a millisecond) is the configuration's choice only
 * when NODE_ENV=test (bun test, the e2e server), never in production: tests log in thousands of times.
 */
export type PasswordHashing = 'standard' | 'test';

/** Configuration, read once from the environment and validated; a bad value stops the process. */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  production: boolean;
  productName: string;
  /** The origins allowed to make state-changing calls besides the server's own (comma-separated PUBLIC_URL). */
  publicUrls: string[];
  seedAdminEmail: string;
  /** undefined in production when no password was given: then no admin is seeded. */
  seedAdminPassword: string | undefined;
  allowRegistration: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** LOG_LEVEL: trace, debug, info (the default: one access line per request), warn, error; silent for tests. */
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * SECRETS_KEY's keys (32 bytes each, base64, separated by commas during a rotation): the key ring that
   * seals the secrets stored encrypted and keys PIN lookups and report tokens (secrets/key-ring.ts).
   */
  secretsKey: KeyRing;
  /** True when secretsKey is the development key derived from DEV_SECRETS_SEED (never in production). */
  secretsKeyIsDevDefault: boolean;
  /**
   * The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (TRUST_PROXY: addresses, CIDR ranges, or
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated). Empty: the socket's peer is the client.
   */
  trustProxy: string[];
  /**
   * The bearer token /metrics asks for (METRICS_TOKEN, 16 characters or more). Unset: /metrics answers
   * only requests from this machine that passed no proxy (metrics/routes.ts).
   */
  metricsToken: string | undefined;
  /**
   * How a locker's TemperatureReadings are committed before they are acknowledged (READINGS_COMMIT):
   * `fast` (the default): committed, unique keys and all, without waiting for the disk to confirm the
   * write-ahead log (`synchronous_commit = off` for that statement): a database server crash may lose the
   * last ~0.6 s of acknowledged readings. `durable`: the ack also waits for the disk, as every other
   * locker event always does. docs/LOCKER-PROTOCOL.md and docs/PERFORMANCE.md say why.
   */
  readingsCommit: 'fast' | 'durable';
  /**
   * Whether the hub's hottest statements run as named prepared statements on PostgreSQL
   * (DATABASE_PREPARED_STATEMENTS, `on` by default): parsed and planned once per connection. `off` for a
   * pooler in front of PostgreSQL that cannot carry them (PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements: boolean;
  /**
   * Webhooks may go to private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1):
   * development, tests and benches only (webhooks/ssrf.ts). Never lifts "https only" in production.
   */
  webhookAllowPrivateAddresses: boolean;
  /**
   * Identity providers (OIDC issuers, SAML metadata URLs) may be on plain http at a loopback address
   * (SSO_ALLOW_HTTP_LOOPBACK=1): development and tests, whose OpenID provider runs on 127.0.0.1
   * (sso/provider-fetch.ts). Ignored in production: there a provider is https on a public address.
   */
  ssoAllowHttpLoopback: boolean;
  /** Background jobs one process runs at once (JOBS_CONCURRENCY, default 16): most wait on a provider's answer. */
  /**
   * How long a stopping process answers /readyz with 503 (while still serving) before it stops taking
   * requests, so a balancer checking it has taken it out first (SHUTDOWN_DRAIN_SECONDS; production 5, else 0).
   */
  shutdownDrainMs: number;
  /** `npm run worker`'s /metrics and /healthz port (WORKER_METRICS_PORT, default 9464; 0: none). */
  workerMetricsPort: number;
  jobsConcurrency: number;
  /**
   * How long an unconfirmed message (its sender died between handing it to the gateway and recording the
   * answer) waits for the provider's delivery report before it is taken as never received and sent again
   * (MESSAGES_UNCONFIRMED_GRACE_SECONDS, default 600; docs/decisions/messaging.md "Unconfirmed messages").
   */
  messagesUnconfirmedGraceMs: number;
  /**
   * How long an SMS or WhatsApp message may go without word from its provider, sent again meanwhile,
   * before staff are told it has not arrived (MESSAGES_UNDELIVERED_ALERT_MINUTES, default 30).
   */
  messagesUndeliveredAlertMs: number;
  /** The argon2id cost of new password hashes: `test` only when NODE_ENV=test (never in production). */
  passwordHashing: PasswordHashing;
  /** The message gateways (delivery/messages/gateways/): each is usable when its credentials are set. */
  gateways: GatewaysConfig;
  /** Card payments through Judopay (payments/judopay.ts, areas/checkout). */
  judopay: JudopayConfig;
  /** NHS login for patients (NHS_LOGIN_*): undefined when not configured (config/nhs-login-config.ts). */
  nhsLogin: NhsLoginConfig | undefined;
};

/**
 * Judopay's addresses and its webhook credential. A business whose payment settings say sandbox is
 * served by `apiUrl` (JUDOPAY_API_URL, Judopay's sandbox by default), any other by `liveApiUrl`
 * (JUDOPAY_LIVE_API_URL, Judopay's live API by default); tests point both at a local server.
 */
export type JudopayConfig = {
  /**
   * Outside production only: the server starts a local Judopay (payments/fake-judopay.ts, its API and
   * hosted payment page) and serves sandbox businesses from it instead of `apiUrl`; the demo's
   * businesses are seeded with its account (JUDOPAY_LOCAL, on by default where JUDOPAY_API_URL is
   * unset). Never in production: JUDOPAY_LOCAL=1 there is refused.
   */
  local: boolean;
  apiUrl: string;
  liveApiUrl: string;
  /** The Basic credential Judopay's portal shows for webhooks; unset, `/hooks/judopay` answers 404. */
  webhook: { user: string; password: string } | undefined;
};

/**
 * The message gateways' settings. The `*ApiUrl`s default to the providers' real addresses; tests and
 * staging point them at local servers. AWS credentials come from the SDK's standard chain (AWS_*).
 */
export type GatewaysConfig = {
  smsWorks: { jwt: string | undefined; apiUrl: string };
  messageBird: { accessKey: string | undefined; apiUrl: string };
  awsSms: { region: string | undefined; endpoint: string | undefined; configurationSet: string | undefined };
  whatsApp: {
    token: string | undefined;
    phoneNumberId: string | undefined;
    apiUrl: string;
    appSecret: string | undefined;
    verifyToken: string | undefined;
  };
};

/** The demo admin password used only outside production, printed at start so a developer can log in. */
export const DEV_ADMIN_PASSWORD = 'medlocker-demo-2026';

/**
 * Outside production without SECRETS_KEY, the key is SHA-256 of this text: a fixed key, so a developer's
 * stored secrets survive restarts, and a known one, so it protects nothing and is never used in production.
 */
export const DEV_SECRETS_SEED = 'medlocker development secrets key: not secret';

/** The 32-byte key of SECRETS_KEY (base64 or base64url), or a message saying what is wrong. */
export function parseSecretsKey(value: string): Uint8Array | string {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return 'must be base64 (generate one with: openssl rand -base64 32)';
  const bytes = new Uint8Array(Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64'));
  if (bytes.length !== 32)
    return `must be 32 bytes in base64, not ${bytes.length} (generate one with: openssl rand -base64 32)`;
  return bytes;
}

/** A base address without its trailing slash, so adapters can append paths. */
const base = (url: string | undefined, fallback: string) => (url ?? fallback).replace(/\/+$/, '');

/** SECRETS_KEY's keys, in order: one, or during a rotation several separated by commas. */
const secretsKeyTexts = (value: string) =>
  value
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean);

/**
 * The key ring that seals secrets at rest (secrets/key-ring.ts): SECRETS_KEY's keys, the first sealing
 * what is new, or outside production the development key.
 */
function secretsKeyOf(env: Env, production: boolean): KeyRing {
  if (env.SECRETS_KEY) {
    const texts = secretsKeyTexts(env.SECRETS_KEY);
    const keys = texts.map((text, i) => {
      const key = parseSecretsKey(text);
      if (typeof key === 'string') throw invalid(`  SECRETS_KEY: ${texts.length > 1 ? `key ${i + 1} ` : ''}${key}`);
      return key;
    });
    if (keys.length === 0)
      throw invalid('  SECRETS_KEY: holds no key (32 random bytes in base64: openssl rand -base64 32)');
    if (new Set(texts).size !== texts.length) throw invalid('  SECRETS_KEY: holds the same key twice');
    return new KeyRing(keys);
  }
  if (production) {
    throw invalid(
      '  SECRETS_KEY: must be set in production: 32 random bytes in base64 (openssl rand -base64 32); it encrypts the payment and webhook secrets',
    );
  }
  if (env.NODE_ENV !== 'test') {
    console.warn('  SECRETS_KEY is not set: using the development key. Set SECRETS_KEY before storing real secrets.');
  }
  return new KeyRing([devSecretsKey()]);
}

/**
 * What production refuses to start without, all named at once: a real mail server (staff mail would go
 * to a mailbox every support user can read), https addresses for the links in patients' messages, and a
 * secrets key of its own. Each line names the variable and what to set.
 */
function refuseUnsafeProduction(env: Env): void {
  const problems: string[] = [];
  if (!env.SMTP_URL) {
    problems.push(
      '  SMTP_URL: must be set in production: staff mail (invitations, password reset links, digests, monthly reports) goes through it (smtp://user:password@host:587 or smtps://user:password@host:465)',
    );
  }
  const publicUrls = (env.PUBLIC_URL ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (publicUrls.length === 0) {
    problems.push(
      "  PUBLIC_URL: must be set in production to this server's https address (e.g. https://lockers.example.co.uk): the links in patients' messages and the providers' report addresses are built on it",
    );
  }
  for (const url of publicUrls) {
    if (URL.canParse(url) && new URL(url).protocol !== 'https:') {
      problems.push(`  PUBLIC_URL: '${url}' must be https in production (patients open these links on their phones)`);
    }
  }
  if (env.JUDOPAY_LOCAL === '1') {
    problems.push(
      '  JUDOPAY_LOCAL: a local Judopay takes no real payments and is for development only: unset it in production',
    );
  }
  if (env.SECRETS_KEY && isDevSecretsKey(env.SECRETS_KEY)) {
    problems.push(
      '  SECRETS_KEY: is the development key: set 32 random bytes in base64 of your own (openssl rand -base64 32)',
    );
  }
  if (problems.length > 0) throw invalid(problems.join('\n'));
}

const devSecretsKey = () => new Uint8Array(new Bun.CryptoHasher('sha256').update(DEV_SECRETS_SEED).digest());

const isDevSecretsKey = (value: string) =>
  secretsKeyTexts(value).some((text) => {
    const key = parseSecretsKey(text);
    return typeof key !== 'string' && Buffer.from(key).equals(Buffer.from(devSecretsKey()));
  });

/** PUBLIC_URL's origins, each a URL, without a trailing slash. */
function publicUrlsOf(env: Env): string[] {
  const publicUrls = (env.PUBLIC_URL ?? '')
    .split(',')
    .map((u) => u.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const u of publicUrls) {
    if (!URL.canParse(u)) throw invalid(`  PUBLIC_URL: '${u}' is not a URL`);
  }
  return publicUrls;
}

/** TRUST_PROXY's addresses and ranges, as proxy-addr reads them. */
function trustProxyOf(env: Env): string[] {
  const trustProxy = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(trustProxy);
  } catch (error) {
    throw invalid(
      `  TRUST_PROXY: ${(error as Error).message} (give addresses or CIDR ranges, e.g. 10.0.0.0/8, or loopback, linklocal, uniquelocal)`,
    );
  }
  return trustProxy;
}

/** The message gateways' credentials and base addresses. */
const gatewaysOf = (env: Env): Config['gateways'] => ({
  smsWorks: { jwt: env.SMSWORKS_JWT, apiUrl: base(env.SMSWORKS_API_URL, 'https://api.thesmsworks.co.uk') },
  messageBird: {
    accessKey: env.MESSAGEBIRD_ACCESS_KEY,
    apiUrl: base(env.MESSAGEBIRD_API_URL, 'https://rest.messagebird.com'),
  },
  awsSms: {
    region: env.AWS_REGION,
    endpoint: env.AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2,
    configurationSet: env.AWS_SMS_CONFIGURATION_SET,
  },
  whatsApp: {
    token: env.WHATSAPP_TOKEN,
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
    apiUrl: base(env.WHATSAPP_API_URL, 'https://graph.facebook.com/v21.0'),
    appSecret: env.WHATSAPP_APP_SECRET,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN,
  },
});

/** Judopay's sandbox and live addresses, and the Basic credential its webhooks carry (both or neither). */
function judopayOf(env: Env): Config['judopay'] {
  if (!env.JUDOPAY_WEBHOOK_USER !== !env.JUDOPAY_WEBHOOK_PASSWORD) {
    throw invalid(
      '  JUDOPAY_WEBHOOK_USER, JUDOPAY_WEBHOOK_PASSWORD: set both (the username and password Judopay shows for webhooks) or neither',
    );
  }
  return {
    local: env.NODE_ENV !== 'production' && (env.JUDOPAY_LOCAL ?? (env.JUDOPAY_API_URL ? '0' : '1')) === '1',
    apiUrl: base(env.JUDOPAY_API_URL, 'https://api-sandbox.judopay.com'),
    liveApiUrl: base(env.JUDOPAY_LIVE_API_URL, 'https://api.judopay.com'),
    webhook:
      env.JUDOPAY_WEBHOOK_USER && env.JUDOPAY_WEBHOOK_PASSWORD
        ? { user: env.JUDOPAY_WEBHOOK_USER, password: env.JUDOPAY_WEBHOOK_PASSWORD }
        : undefined,
  };
}

/** The configuration from the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(
  rawEnv: Record<string, string | undefined>,
  cwd = process.cwd(),
  readFile: (path: string) => string = (path) => readFileSync(resolve(cwd, path), 'utf8'),
): Config {
  const env = readEnv(rawEnv, readFile);
  const production = env.NODE_ENV === 'production';
  if (production && !env.SEED_ADMIN_PASSWORD && env.SEED_ADMIN_EMAIL) {
    throw invalid(
      '  SEED_ADMIN_PASSWORD: must be set (12 characters or more) when SEED_ADMIN_EMAIL is set in production; no default password is ever seeded in production',
    );
  }
  const secretsKey = secretsKeyOf(env, production);
  const judopay = judopayOf(env);
  const publicUrls = publicUrlsOf(env);
  const nhsLogin = nhsLoginOf(env, production);
  if (production) refuseUnsafeProduction(env);
  return {
    port: env.PORT ?? 3000,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(cwd, env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL,
    production,
    productName: env.PRODUCT_NAME ?? 'MedLocker',
    publicUrls,
    seedAdminEmail: env.SEED_ADMIN_EMAIL ?? 'admin@medlocker.test',
    seedAdminPassword: env.SEED_ADMIN_PASSWORD ?? (production ? undefined : DEV_ADMIN_PASSWORD),
    allowRegistration: env.ALLOW_REGISTRATION === 'true',
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? 'MedLocker <no-reply@medlocker.test>',
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    secretsKey,
    secretsKeyIsDevDefault: !env.SECRETS_KEY,
    trustProxy: trustProxyOf(env),
    metricsToken: env.METRICS_TOKEN,
    readingsCommit: env.READINGS_COMMIT ?? 'fast',
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS !== 'off',
    webhookAllowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === '1',
    ssoAllowHttpLoopback: !production && env.SSO_ALLOW_HTTP_LOOPBACK === '1',
    jobsConcurrency: env.JOBS_CONCURRENCY ?? 16,
    // Behind a balancer (production) a stopping process first fails /readyz long enough to be taken out.
    workerMetricsPort: env.WORKER_METRICS_PORT ?? 9464,
    shutdownDrainMs: (env.SHUTDOWN_DRAIN_SECONDS ?? (production ? 5 : 0)) * 1000,
    messagesUnconfirmedGraceMs: (env.MESSAGES_UNCONFIRMED_GRACE_SECONDS ?? 600) * 1000,
    messagesUndeliveredAlertMs: (env.MESSAGES_UNDELIVERED_ALERT_MINUTES ?? 30) * 60_000,
    passwordHashing: env.NODE_ENV === 'test' ? 'test' : 'standard',
    gateways: gatewaysOf(env),
    judopay,
    nhsLogin,
  };
}
