import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isMaskedSecret, paymentSecretMask } from '@medlocker/core';

import { type KeyRing, ringOf } from './key-ring.ts';

/**
 * Secrets the app must use again (the card provider's token and secret, webhook signing secrets,
 * identity providers' client secrets, test machines' tokens, order PINs) are kept encrypted with
 * AES-256-GCM under the sealing key of SECRETS_KEY's key ring (secrets/key-ring.ts). Sealed text:
 * `v2.<key id>.<iv>.<ciphertext+tag>` (base64url), under the ring's first key. `context` (e.g.
 * 'payment_settings.judo_secret:b1') is bound in as associated data, so a sealed value copied to another
 * row or column does not open. Values sealed before the ring (`v1.<iv>.<ciphertext+tag>`, the key itself
 * as the AES key) still open, until the re-seal job (secrets/reseal.ts) has sealed them again.
 */
export type SecretBox = {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** True when the value is sealed under the ring's first key as it seals today: nothing to re-seal. */
  isCurrent(sealed: string): boolean;
};

const VERSION = 'v2';
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function encrypt(key: Uint8Array, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${body.toString('base64url')}`;
}

function decrypt(key: Uint8Array, ivText: string, bodyText: string, context: string): string {
  const body = Buffer.from(bodyText, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** A value sealed before the ring: opened by whichever key of the ring sealed it. */
function openLegacy(ring: KeyRing, ivText: string, bodyText: string, context: string): string {
  for (const key of ring.keys) {
    try {
      return decrypt(key.legacy('seal'), ivText, bodyText, context);
    } catch {
      // not this key: the next
    }
  }
  throw new Error('A secret sealed before the key ring opens under none of its keys');
}

/** How every value sealed under the ring's first key begins: `v2.<key id>.`. */
export const currentSealPrefix = (keys: KeyRing | Uint8Array): string => `${VERSION}.${ringOf(keys).current.id}.`;

export function createSecretBox(keys: KeyRing | Uint8Array): SecretBox {
  const ring = ringOf(keys);
  const current = ring.current;
  return {
    seal: (plaintext, context) => `${VERSION}.${current.id}.${encrypt(current.use('seal'), plaintext, context)}`,
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts[0] === LEGACY_VERSION && parts.length === 3)
        return openLegacy(ring, parts[1] ?? '', parts[2] ?? '', context);
      const [version, id, ivText, bodyText] = parts;
      if (version !== VERSION || !id || !ivText || !bodyText || parts.length !== 4)
        throw new Error('Not a sealed secret');
      const key = ring.byId(id);
      if (!key) throw new Error(`Sealed under key ${id}, which SECRETS_KEY no longer holds`);
      return decrypt(key.use('seal'), ivText, bodyText, context);
    },
    isCurrent: (sealed) => sealed.startsWith(currentSealPrefix(ring)),
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
