/** 32 random bytes, base64url: the session and reset tokens given to a client, never stored as such. */
export function newToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}

/**
 * SHA-256 hex of a token: what the database keeps. A fast hash is right here (unlike for passwords):
 * the token has 256 bits of entropy, so there is nothing to guess, only a leaked table to make useless.
 */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex');
}
