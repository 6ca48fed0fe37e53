import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config/config.ts';
import type { ProviderName } from './gateways/gateway.ts';

/** Where delivery reports arrive: outside /api/, since providers send no Origin and use GET and form posts too. */
export const REPORTS_PATH = '/hooks/messages';

/**
 * The token for one subject (a provider and message id, or a provider alone): an HMAC-SHA256 under the
 * ring's first report-URL key (secrets/key-ring.ts), a key for this one use, so a token reveals nothing
 * about the key that seals the stored secrets.
 */
export const reportToken = (config: Config, subject: string): string => config.secretsKey.mac('report-urls', subject);

/**
 * Whether `token` is the one for `subject` under any key of the ring (a message sent before a key rotation
 * is reported on its old URL), compared in constant time. Once a key leaves SECRETS_KEY, its URLs stop.
 * (A path with a malformed percent-escape never gets here: the app answers it 400 before any route.)
 */
export function reportTokenMatches(config: Config, subject: string, token: string): boolean {
  const got = Buffer.from(token);
  return config.secretsKey.macs('report-urls', subject).some((token) => {
    const want = Buffer.from(token);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}

const publicUrlOf = (config: Config): string | undefined => config.publicUrls[0];

/**
 * The report URL of one message, for providers that take one per message (The SMS Works, MessageBird):
 * the message id and its token in the path, so only the provider told it can report on that message.
 * Undefined without PUBLIC_URL: then no reports can reach us and none is asked for.
 */
export function messageReportUrl(config: Config, provider: 'smsworks' | 'messagebird', messageId: string) {
  const origin = publicUrlOf(config);
  if (!origin) return undefined;
  return `${origin}${REPORTS_PATH}/${provider}/${encodeURIComponent(messageId)}/${reportToken(config, `${provider}:${messageId}`)}`;
}

/**
 * The one report URL of a provider configured once in its console (AWS: the SNS topic's HTTPS
 * subscription), carrying the provider's token.
 */
export function providerReportUrl(config: Config, provider: Extract<ProviderName, 'aws-sms'>) {
  const origin = publicUrlOf(config);
  if (!origin) return undefined;
  return `${origin}${REPORTS_PATH}/${provider}/${reportToken(config, provider)}`;
}

/** WhatsApp's callback URL (set in the Meta app): its posts are signed with the app secret instead. */
export const whatsAppReportUrl = (config: Config) => {
  const origin = publicUrlOf(config);
  return origin ? `${origin}${REPORTS_PATH}/whatsapp` : undefined;
};

/**
 * The `reportUrl` to give a gateway's send for one message: its own URL for the providers that take
 * one per message; undefined for AWS and WhatsApp (their one URL is set in the provider's console:
 * {@link providerReportUrl}, {@link whatsAppReportUrl}) and for email (SMTP has no delivery reports).
 */
export function reportUrlFor(config: Config, provider: ProviderName, messageId: string): string | undefined {
  return provider === 'smsworks' || provider === 'messagebird'
    ? messageReportUrl(config, provider, messageId)
    : undefined;
}
