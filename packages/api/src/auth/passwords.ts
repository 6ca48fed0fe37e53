/** Passwords are hashed with argon2id (Bun.password's default parameters). */
export const hashPassword = (password: string): Promise<string> =>
  Bun.password.hash(password, { algorithm: 'argon2id' });

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown user, an account that has not set a
 * password yet) it still verifies against a dummy argon2id hash, so the answer takes the same time
 * and nobody can tell from the clock which emails have accounts.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('dummy password that never matches anything');
    await Bun.password.verify(password, await dummyHash).catch(() => false);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}
