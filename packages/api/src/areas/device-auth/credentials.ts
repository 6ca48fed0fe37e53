import type { AppDeps } from '../../context/deps.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';

/**
 * Test machines' tokens are shown in the console (QA pastes them into locker-sim), so unlike real
 * lockers' they are kept, sealed under SECRETS_KEY's ring (secrets/secret-box.ts) and bound to
 * their machine, so a sealed token copied to another row does not open.
 */
export function tokenSealer(deps: AppDeps, machineId: string) {
  const box = createSecretBox(deps.config.secretsKey);
  const context = sealingContexts.machineToken(machineId);
  return {
    seal: async (plain: string): Promise<string> => box.seal(plain, context),
    open: (sealed: string): string => box.open(sealed, context),
  };
}
