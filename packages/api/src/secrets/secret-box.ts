import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isMaskedSecret, paymentSecretMask } from '@medlocker/core';

/**
 * Secrets the app must use again (the card provider's token and secret, webhook signing secrets) are
 * kept encrypted with AES-256-GCM under SECRETS_KEY. Sealed text: `v1.<iv>.<ciphertext+tag>` (base64url).
 * `context` (e.g. 'payment_settings.judo_secret:b1') is bound in as associated data, so a sealed value
 * copied to another row or column does not open.
 */
export type SecretBox = {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
};

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, ivText, bodyText] = sealed.split('.');
      if (version !== VERSION || !ivText || !bodyText) throw new Error('Not a sealed secret');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** The last characters of a secret shown after the mask: 4, or fewer for a short one (never all of it). */
export const secretHint = (secret: string): string => secret.slice(-Math.min(4, Math.floor(secret.length / 2)));

/** '********' and the last 4 characters: how a stored secret is shown. Starts with '*', see `isMaskedSecret`. */
export const maskSecret = (secret: string): string => `${paymentSecretMask}${secretHint(secret)}`;

/** True when a value sent back is the masked form, which means "keep the stored secret". */
export const isMasked = isMaskedSecret;

/** A new random secret for a client to keep: 32 bytes, base64url, with a prefix that says what it is. */
export const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

/**
 * A new webhook signing secret as Standard Webhooks has it: `whsec_` + STANDARD base64 of 32 random bytes
 * (the `standardwebhooks` library refuses base64url's "-" and "_", which `newSecret` would give).
 */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
