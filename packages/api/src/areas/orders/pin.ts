import { createHmac, randomInt } from 'node:crypto';
import { createSecretBox } from '../../secrets/secret-box.ts';

/*
 * An order's PIN: 8 digits from a CSPRNG. Two forms are stored, never the PIN in clear:
 * - `pin`: sealed with SECRETS_KEY (AES-GCM, bound to the order id) so staff can reveal it and messages
 *   can carry it;
 * - `pin_lookup`: a keyed HMAC of the PIN, which a locker's VerifyPin looks up and a unique index keeps
 *   unique among the live orders of a machine (migration 0017).
 * A stolen database without the key gives neither: 10^8 PINs are no work to try against a plain hash.
 */

export const PIN_DIGITS = 8;

export const newPin = (): string => String(randomInt(0, 10 ** PIN_DIGITS)).padStart(PIN_DIGITS, '0');

const lookupKeys = new WeakMap<Uint8Array, Buffer>();

/** The HMAC key for lookups: derived from SECRETS_KEY, so one secret stays the only one to keep. */
function lookupKey(secretsKey: Uint8Array): Buffer {
  let key = lookupKeys.get(secretsKey);
  if (!key) {
    key = createHmac('sha256', secretsKey).update('medlocker/order-pin-lookup/v1').digest();
    lookupKeys.set(secretsKey, key);
  }
  return key;
}

export const pinLookup = (secretsKey: Uint8Array, pin: string): string =>
  createHmac('sha256', lookupKey(secretsKey)).update(pin).digest('base64url');

const context = (orderId: string) => `orders.pin:${orderId}`;

export const sealPin = (secretsKey: Uint8Array, orderId: string, pin: string): string =>
  createSecretBox(secretsKey).seal(pin, context(orderId));

export const openPin = (secretsKey: Uint8Array, orderId: string, sealed: string): string =>
  createSecretBox(secretsKey).open(sealed, context(orderId));

/** A new PIN for the order in its two stored forms only: what the demo seed writes (it has no key). */
export function drawSealedPin(secretsKey: Uint8Array, orderId: string): { pin: string; pinLookup: string } {
  const pin = newPin();
  return { pin: sealPin(secretsKey, orderId, pin), pinLookup: pinLookup(secretsKey, pin) };
}

/** The order's PIN in clear (for the message sender and staff who reveal it), or null when it has none. */
export const pinOf = (secretsKey: Uint8Array, order: { id: string; pin: string | null }): string | null =>
  order.pin === null ? null : openPin(secretsKey, order.id, order.pin);
