import { type KeyObject, verify, X509Certificate } from 'node:crypto';

/**
 * Amazon SNS messages posted to an HTTPS subscription (how AWS End User Messaging SMS events reach us),
 * checked as AWS documents ("Verifying the signatures of Amazon SNS messages"): the signing certificate
 * only from SNS's own hosts over HTTPS, the fields of the message type in their fixed order, RSA with
 * SHA1 (SignatureVersion 1) or SHA256 (2). docs/decisions/messaging.md "Delivery reports against the providers'
 * documentation".
 */

/** SNS's own hosts (sns.<region>.amazonaws.com, and .com.cn in China): the only SubscribeURLs and certificates used. */
export const isSnsUrl = (url: string): boolean => {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return u.protocol === 'https:' && /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(u.hostname);
};

/** The fields each message type signs, in the order they are signed. Subject is signed only when present. */
const signedFields: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The text SNS signed for this message (`Name\nvalue\n` per field), or null when a signed field is missing. */
export function snsStringToSign(envelope: Record<string, unknown>): string | null {
  const fields = signedFields[String(envelope.Type)];
  if (!fields) return null;
  let text = '';
  for (const field of fields) {
    const value = envelope[field];
    if (value === undefined || value === null) {
      if (field === 'Subject') continue;
      return null;
    }
    if (typeof value !== 'string') return null;
    text += `${field}\n${value}\n`;
  }
  return text;
}

/** Gives the public key of the certificate at an SNS SigningCertURL (already checked to be SNS's). */
export type SnsSigningKeys = (certUrl: string) => Promise<KeyObject>;

const CERTS_KEPT = 16;

/**
 * The default {@link SnsSigningKeys}: GETs the PEM certificate (no redirects, 10 s), keeps the last few
 * (SNS signs with one certificate per region for months), forgets a failed fetch so the next try refetches.
 */
export function snsSigningKeys(): SnsSigningKeys {
  const cache = new Map<string, Promise<KeyObject>>();
  return (certUrl) => {
    let key = cache.get(certUrl);
    if (!key) {
      key = (async () => {
        const res = await fetch(certUrl, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`the signing certificate answered ${res.status}`);
        return new X509Certificate(await res.text()).publicKey;
      })();
      key.catch(() => cache.delete(certUrl));
      if (cache.size >= CERTS_KEPT) cache.delete(cache.keys().next().value ?? '');
      cache.set(certUrl, key);
    }
    return key;
  };
}

/**
 * Whether an SNS message carries SNS's valid signature. False for an unknown SignatureVersion, a
 * certificate URL that is not SNS's own `.pem`, a missing signed field or a signature that does not
 * verify; throws when the certificate cannot be fetched (the caller answers 502 so SNS retries).
 */
export async function snsSignatureValid(envelope: Record<string, unknown>, keys: SnsSigningKeys): Promise<boolean> {
  const algorithm = envelope.SignatureVersion === '1' ? 'sha1' : envelope.SignatureVersion === '2' ? 'sha256' : null;
  const certUrl = typeof envelope.SigningCertURL === 'string' ? envelope.SigningCertURL : '';
  const signature = typeof envelope.Signature === 'string' ? envelope.Signature : '';
  const text = snsStringToSign(envelope);
  if (!algorithm || !signature || text === null || !isSnsUrl(certUrl)) return false;
  if (!new URL(certUrl).pathname.endsWith('.pem')) return false;
  const key = await keys(certUrl);
  return verify(algorithm, Buffer.from(text, 'utf8'), key, Buffer.from(signature, 'base64'));
}
