import { type } from 'arktype';

/*
 * The environment as the configuration reads it: every variable it knows, checked once (a bad value stops
 * the process with a ConfigError naming it), empty ones taken as unset, secrets read from files.
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const Env = type({
  'PORT?': type('string.integer.parse').to('1 <= number.integer <= 65535'),
  'HOST?': 'string > 0',
  'DATA_DIR?': 'string > 0',
  'DATABASE_URL?': /^postgres(ql)?:\/\/.+/,
  'NODE_ENV?': "'production' | 'development' | 'test'",
  'PRODUCT_NAME?': 'string > 0',
  'PUBLIC_URL?': 'string > 0',
  'SEED_ADMIN_EMAIL?': 'string.email',
  'SEED_ADMIN_PASSWORD?': 'string >= 12',
  'ALLOW_REGISTRATION?': "'true' | 'false'",
  'SMTP_URL?': /^smtps?:\/\/.+/,
  'MAIL_FROM?': 'string > 0',
  'LOG_LEVEL?': "'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent'",
  'SECRETS_KEY?': 'string > 0',
  'TRUST_PROXY?': 'string > 0',
  'METRICS_TOKEN?': /^[\x21-\x7e]{16,256}$/,
  'READINGS_COMMIT?': "'fast' | 'durable'",
  'DATABASE_PREPARED_STATEMENTS?': "'on' | 'off'",
  'WEBHOOK_ALLOW_PRIVATE_ADDRESSES?': "'0' | '1'",
  'SSO_ALLOW_HTTP_LOOPBACK?': "'0' | '1'",
  'WORKER_METRICS_PORT?': type('string.integer.parse').to('0 <= number.integer <= 65535'),
  'SHUTDOWN_DRAIN_SECONDS?': type('string.integer.parse').to('0 <= number.integer <= 60'),
  'JOBS_CONCURRENCY?': type('string.integer.parse').to('1 <= number.integer <= 256'),
  'MESSAGES_UNCONFIRMED_GRACE_SECONDS?': type('string.integer.parse').to('1 <= number.integer <= 86400'),
  'MESSAGES_UNDELIVERED_ALERT_MINUTES?': type('string.integer.parse').to('1 <= number.integer <= 1440'),
  'SMSWORKS_JWT?': 'string > 0',
  'SMSWORKS_API_URL?': /^https?:\/\/.+/,
  'MESSAGEBIRD_ACCESS_KEY?': 'string > 0',
  'MESSAGEBIRD_API_URL?': /^https?:\/\/.+/,
  'AWS_REGION?': /^[a-z]{2}(-[a-z]+)+-\d+$/,
  'AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2?': /^https?:\/\/.+/,
  'AWS_SMS_CONFIGURATION_SET?': 'string > 0',
  'WHATSAPP_TOKEN?': 'string > 0',
  'WHATSAPP_PHONE_NUMBER_ID?': /^\d+$/,
  'WHATSAPP_API_URL?': /^https?:\/\/.+/,
  'WHATSAPP_APP_SECRET?': 'string > 0',
  'WHATSAPP_VERIFY_TOKEN?': 'string >= 16',
  'JUDOPAY_LOCAL?': "'0' | '1'",
  'JUDOPAY_API_URL?': /^https?:\/\/.+/,
  'JUDOPAY_LIVE_API_URL?': /^https?:\/\/.+/,
  'JUDOPAY_WEBHOOK_USER?': 'string > 0',
  'JUDOPAY_WEBHOOK_PASSWORD?': 'string >= 8',
  'NHS_LOGIN_ISSUER?': /^https?:\/\/.+/,
  'NHS_LOGIN_CLIENT_ID?': 'string > 0',
  'NHS_LOGIN_PRIVATE_KEY?': 'string > 0',
});

/** Empty variables count as unset, as a shell user would expect. */
function present(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v.trim() !== '') out[k] = v.trim();
  return out;
}

/**
 * The variables that hold a secret: each may instead name a file holding it (`SECRETS_KEY_FILE`…), as
 * container secrets are mounted (compose.yaml), so no secret need sit in the environment.
 */
export const SECRET_VARIABLES = [
  'SECRETS_KEY',
  'DATABASE_URL',
  'SEED_ADMIN_PASSWORD',
  'SMTP_URL',
  'METRICS_TOKEN',
  'SMSWORKS_JWT',
  'MESSAGEBIRD_ACCESS_KEY',
  'WHATSAPP_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'JUDOPAY_WEBHOOK_PASSWORD',
  'NHS_LOGIN_PRIVATE_KEY',
] as const;

/** Reads each `X_FILE` into `X` (trailing line breaks dropped); both set, or an unreadable file, is refused. */
function fromFiles(env: Record<string, string>, readFile: (path: string) => string): Record<string, string> {
  const out = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const path = env[`${name}_FILE`];
    if (path === undefined) continue;
    delete out[`${name}_FILE`];
    if (env[name] !== undefined) {
      problems.push(`  ${name}_FILE: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      const value = readFile(path).replace(/[\r\n]+$/, '');
      if (value.trim() !== '') out[name] = value.trim();
    } catch (error) {
      problems.push(`  ${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (problems.length > 0) throw invalid(problems.join('\n'));
  return out;
}

export type Env = typeof Env.infer;

export const invalid = (lines: string) => new ConfigError(`Invalid configuration:\n${lines}`);

/** The declared variables, checked; undeclared ones are ignored: the environment holds far more than ours. */
export function readEnv(rawEnv: Record<string, string | undefined>, readFile: (path: string) => string): Env {
  const parsed = Env(fromFiles(present(rawEnv), readFile));
  if (parsed instanceof type.errors) {
    throw invalid(parsed.map((e) => `  ${e.path.join('.')}: ${e.message}`).join('\n'));
  }
  return parsed;
}
