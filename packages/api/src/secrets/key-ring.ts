import { createHmac, hkdfSync } from 'node:crypto';

/**
 * SECRETS_KEY as a key ring: one or more 32-byte keys, the first of which seals and keys everything new;
 * the others still open what they sealed until the re-seal job (secrets/reseal.ts) has moved it all to
 * the first, after which an operator removes them (docs/OPERATIONS.md, "Rotating SECRETS_KEY").
 *
 * Each use of a key gets a key of its own, derived with HKDF-SHA256 (RFC 5869) under a name for that use:
 * the key that seals secrets is never the one that keys PIN lookups or delivery-report tokens, and none
 * of them is the key an operator holds.
 */
export type KeyUse = 'seal' | 'pin-lookup' | 'report-urls';

/** What each derived key is called in HKDF's `info`: changing one changes every value made with it. */
const INFO: Record<KeyUse | 'key-id', string> = {
  seal: 'medlocker/seal/v2',
  'pin-lookup': 'medlocker/order-pin-lookup/v2',
  'report-urls': 'medlocker/message-report-urls/v2',
  'key-id': 'medlocker/key-id/v2',
};

/**
 * How the keys of each use were made before the ring: an HMAC of the key over a label (the sealing key
 * was the key itself). Values made so still open, check and match until the re-seal job has replaced them.
 */
const LEGACY_LABEL: Record<Exclude<KeyUse, 'seal'>, string> = {
  'pin-lookup': 'medlocker/order-pin-lookup/v1',
  'report-urls': 'medlocker: message delivery report URLs',
};

const SALT = Buffer.from('medlocker secrets key ring');

function derive(key: Uint8Array, info: string, bytes = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', key, SALT, info, bytes));
}

/** One key of the ring: its id (recorded in what it seals) and the key of each use, derived once. */
export class RingKey {
  /** 8 characters, from the key by HKDF: names the key in sealed values and logs without revealing it. */
  readonly id: string;
  readonly #key: Uint8Array;
  readonly #derived = new Map<string, Buffer>();

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
    this.#key = key;
    this.id = derive(key, INFO['key-id'], 6).toString('base64url');
  }

  /** The key of one use. */
  use(use: KeyUse): Buffer {
    let key = this.#derived.get(use);
    if (!key) {
      key = derive(this.#key, INFO[use]);
      this.#derived.set(use, key);
    }
    return key;
  }

  /** The key of one use as it was made before the ring (the sealing key was the key itself). */
  legacy(use: KeyUse): Buffer {
    const name = `legacy:${use}`;
    let key = this.#derived.get(name);
    if (!key) {
      key =
        use === 'seal' ? Buffer.from(this.#key) : createHmac('sha256', this.#key).update(LEGACY_LABEL[use]).digest();
      this.#derived.set(name, key);
    }
    return key;
  }
}

export class KeyRing {
  readonly keys: readonly RingKey[];

  /** `keys[0]` seals and keys what is new; every key opens and matches what it made. */
  constructor(keys: readonly Uint8Array[]) {
    if (keys.length === 0) throw new Error('A key ring needs at least one key');
    this.keys = keys.map((key) => new RingKey(key));
    const ids = new Set(this.keys.map((k) => k.id));
    if (ids.size !== this.keys.length) throw new Error('The same key is in the ring twice');
  }

  get current(): RingKey {
    return this.keys[0] as RingKey;
  }

  byId(id: string): RingKey | undefined {
    return this.keys.find((k) => k.id === id);
  }

  /**
   * Every key of one use a value may have been made with, the current first: each key's derived one,
   * then the keys made before the ring.
   */
  candidates(use: KeyUse): Buffer[] {
    return [...this.keys.map((k) => k.use(use)), ...this.keys.map((k) => k.legacy(use))];
  }

  /** HMAC-SHA256 of `text` under the first key of one use, base64url: what is stored or sent now. */
  mac(use: Exclude<KeyUse, 'seal'>, text: string): string {
    return hmac(this.current.use(use), text);
  }

  /** `text`'s HMAC under every key of one use a stored or sent one may have been made with, the first key's first. */
  macs(use: Exclude<KeyUse, 'seal'>, text: string): string[] {
    return this.candidates(use).map((key) => hmac(key, text));
  }
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');

/** A ring of one key: what tests and tools that hold a single key use. */
export const ringOf = (keys: KeyRing | Uint8Array): KeyRing => (keys instanceof KeyRing ? keys : new KeyRing([keys]));
