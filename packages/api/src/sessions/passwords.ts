import type { PasswordHashing } from '../config/config.ts';

const costs: Record<PasswordHashing, { memoryCost?: number; timeCost?: number }> = {
  standard: {},
  test: { memoryCost: 1024, timeCost: 1 },
};

/** Passwords are hashed with argon2id (Bun.password's default parameters outside tests). */
export const hashPassword = (password: string, hashing: PasswordHashing = 'standard'): Promise<string> =>
  Bun.password.hash(password, { algorithm: 'argon2id', ...costs[hashing] });

const dummyHashes: Partial<Record<PasswordHashing, Promise<string>>> = {};

/**
 * Checks a password against a stored hash. Without a hash (unknown user, an account that has not set a
 * password yet) it still verifies against a dummy argon2id hash of the cost new hashes get, so the
 * answer takes the same time and nobody can tell from the clock which emails have accounts.
 */
export async function verifyPassword(
  password: string,
  hash: string | null | undefined,
  hashing: PasswordHashing = 'standard',
): Promise<boolean> {
  if (!hash) {
    dummyHashes[hashing] ??= hashPassword('dummy password that never matches anything', hashing);
    await Bun.password.verify(password, await dummyHashes[hashing]).catch(() => false);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}
