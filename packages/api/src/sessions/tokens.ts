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

/** What a token of ours looks like (base64url, as {@link newToken} makes them, with room to change). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * The token in the request's cookie `name`, or null. A value no token of ours can be (a broken
 * %-escape such as `%E0%A4%A`, a stray character) is no token: the caller is treated as having no
 * cookie, so a mangled cookie never stops a login, a patient page or a sign-up, and never throws.
 * Tokens are base64url, which a cookie carries as it is: nothing is %-decoded.
 */
export function cookieToken(request: Request, name: string): string | null {
  const cookie = request.headers.get('cookie');
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return TOKEN_SHAPE.test(value) ? value : null;
    }
  }
  return null;
}
