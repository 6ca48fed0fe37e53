import type { AppDeps } from '../../deps.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';

/**
 * Test machines' tokens are shown in the console (QA pastes them into locker-sim), so unlike real
 * lockers' they are kept, sealed with the app's secrets key (AES-256-GCM, SECRETS_KEY) and bound to
 * their machine, so a sealed token copied to another row does not open.
 */
export function tokenSealer(deps: AppDeps, machineId: string) {
  const box = createSecretBox(deps.config.secretsKey);
  const context = `machine_credentials.token:${machineId}`;
  return {
    seal: async (plain: string): Promise<string> => box.seal(plain, context),
    open: (sealed: string): string => box.open(sealed, context),
  };
}
