import { randomInt } from 'node:crypto';
import { type KeyRing, ringOf } from '../../secrets/key-ring.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';

/*
 * An order's PIN: 8 digits from a CSPRNG. Two forms are stored, never the PIN in clear:
 * - `pin`: sealed with SECRETS_KEY's ring (AES-GCM, bound to the order id) so staff can reveal it and
 *   messages can carry it;
 * - `pin_lookup`: an HMAC of the PIN under the ring's PIN-lookup key, which a locker's VerifyPin looks up
 *   and a unique index keeps unique among the live orders of a machine (migration 0017). During a key
 *   rotation a lookup tries every key of the ring until the re-seal job has keyed it under the first.
 * A stolen database without the key gives neither: 10^8 PINs are no work to try against a plain hash.
 */

export const PIN_DIGITS = 8;

export const newPin = (): string => String(randomInt(0, 10 ** PIN_DIGITS)).padStart(PIN_DIGITS, '0');

type Keys = KeyRing | Uint8Array;

/** The lookup of a PIN under the ring's first key: what is stored with a new PIN. */
export const pinLookup = (keys: Keys, pin: string): string => ringOf(keys).mac('pin-lookup', pin);

/** The PIN's lookup under each key it may be stored under, the first key's first. */
export const pinLookups = (keys: Keys, pin: string): string[] => ringOf(keys).macs('pin-lookup', pin);

const context = sealingContexts.orderPin;

export const sealPin = (secretsKey: Keys, orderId: string, pin: string): string =>
  createSecretBox(secretsKey).seal(pin, context(orderId));

export const openPin = (secretsKey: Keys, orderId: string, sealed: string): string =>
  createSecretBox(secretsKey).open(sealed, context(orderId));

/** A new PIN for the order in its two stored forms only: what the demo seed writes (it has no key). */
export function drawSealedPin(secretsKey: Keys, orderId: string): { pin: string; pinLookup: string } {
  const pin = newPin();
  return { pin: sealPin(secretsKey, orderId, pin), pinLookup: pinLookup(secretsKey, pin) };
}

/** The order's PIN in clear (for the message sender and staff who reveal it), or null when it has none. */
export const pinOf = (secretsKey: Keys, order: { id: string; sealedPin: string | null }): string | null =>
  order.sealedPin === null ? null : openPin(secretsKey, order.id, order.sealedPin);
