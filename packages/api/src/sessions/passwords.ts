/**
 * The argon2id cost of new hashes (a hash carries its own cost, so verifying follows the hash). `standard`
 * is Bun.password's default (64 MiB, 2 passes: hundreds of milliseconds on a loaded 2-core machine), used
 * everywhere but tests. `test` (1 MiB, 1 pass: about a millisecond) is the configuration's choice only
 * when NODE_ENV=test (bun test, the e2e server), never in production: tests log in thousands of times.
 */
export type PasswordHashing = 'standard' | 'test';

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
