import { describe, expect, it } from 'bun:test';
import { createSecretBox, maskSecret } from './secret-box.ts';

describe('secret box', () => {
  const box = createSecretBox(new Uint8Array(32).fill(3));

  it('seals to text without the secret, and opens it again', () => {
    const sealed = box.seal('judo-secret-123', 'payment_settings.judo_secret:b1');
    expect(sealed).not.toContain('judo-secret-123');
    expect(sealed.startsWith('v2.')).toBe(true);
    expect(box.open(sealed, 'payment_settings.judo_secret:b1')).toBe('judo-secret-123');
  });

  it('seals the same secret differently each time', () => {
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('does not open under another context, another key, or after tampering', () => {
    const sealed = box.seal('judo-secret-123', 'payment_settings.judo_secret:b1');
    expect(() => box.open(sealed, 'payment_settings.judo_secret:b2')).toThrow();
    expect(() => createSecretBox(new Uint8Array(32).fill(4)).open(sealed, 'payment_settings.judo_secret:b1')).toThrow();
    // Change the second-to-last character (a random 1 in 64 was already the letter put in before).
    const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => box.open(tampered, 'payment_settings.judo_secret:b1')).toThrow();
  });

  it('masks with eight stars and the last four characters', () => {
    expect(maskSecret('abcdefgh1234')).toBe('********1234');
  });
});
