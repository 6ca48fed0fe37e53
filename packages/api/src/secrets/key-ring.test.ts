import { describe, expect, it } from 'bun:test';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { KeyRing } from './key-ring.ts';
import { createSecretBox } from './secret-box.ts';

const keyA = new Uint8Array(32).fill(1);
const keyB = new Uint8Array(32).fill(2);

/** How a secret was sealed before the ring: `v1.<iv>.<body>`, the key itself as the AES key. */
function sealLegacy(key: Uint8Array, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

describe('the secrets key ring', () => {
  it('names each key by an id that does not reveal it, and refuses the same key twice', () => {
    const ring = new KeyRing([keyB, keyA]);
    expect(ring.current.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(ring.current.id).not.toBe(ring.keys[1]?.id);
    expect(new KeyRing([keyB]).current.id).toBe(ring.current.id);
    expect(() => new KeyRing([keyA, keyA])).toThrow('twice');
    expect(() => new KeyRing([])).toThrow();
  });

  it('derives a key of its own for each use, none of them the key itself', () => {
    const key = new KeyRing([keyA]).current;
    const uses = [key.use('seal'), key.use('pin-lookup'), key.use('report-urls')].map((k) => k.toString('hex'));
    expect(new Set(uses).size).toBe(3);
    expect(uses).not.toContain(Buffer.from(keyA).toString('hex'));
  });

  it('seals under the first key with its id; an older key still opens what it sealed', () => {
    const old = createSecretBox(new KeyRing([keyA]));
    const sealedByA = old.seal('secret', 'ctx');
    const rotated = createSecretBox(new KeyRing([keyB, keyA]));
    expect(rotated.open(sealedByA, 'ctx')).toBe('secret');
    expect(rotated.isCurrent(sealedByA)).toBe(false);
    const sealedByB = rotated.seal('secret', 'ctx');
    expect(sealedByB.startsWith(`v2.${new KeyRing([keyB]).current.id}.`)).toBe(true);
    expect(rotated.isCurrent(sealedByB)).toBe(true);
  });

  it('says which key is missing when a value was sealed under a key the ring no longer holds', () => {
    const sealedByA = createSecretBox(new KeyRing([keyA])).seal('secret', 'ctx');
    const id = new KeyRing([keyA]).current.id;
    expect(() => createSecretBox(new KeyRing([keyB])).open(sealedByA, 'ctx')).toThrow(`Sealed under key ${id}`);
  });

  it('opens values sealed before the ring, under whichever key sealed them, and counts them as to re-seal', () => {
    const legacy = sealLegacy(keyA, 'judo-secret', 'payment_settings.judo_secret:b1');
    const box = createSecretBox(new KeyRing([keyB, keyA]));
    expect(box.open(legacy, 'payment_settings.judo_secret:b1')).toBe('judo-secret');
    expect(box.isCurrent(legacy)).toBe(false);
    expect(() => box.open(legacy, 'payment_settings.judo_secret:b2')).toThrow();
    expect(() => createSecretBox(new KeyRing([keyB])).open(legacy, 'payment_settings.judo_secret:b1')).toThrow();
  });

  it('offers every key a lookup may have been made with: derived ones first, then the ones before the ring', () => {
    const ring = new KeyRing([keyB, keyA]);
    const legacyA = createHmac('sha256', keyA).update('medlocker/order-pin-lookup/v1').digest();
    const candidates = ring.candidates('pin-lookup').map((k) => k.toString('hex'));
    expect(candidates).toHaveLength(4);
    expect(candidates[0]).toBe(ring.current.use('pin-lookup').toString('hex'));
    expect(candidates).toContain(legacyA.toString('hex'));
  });
});
