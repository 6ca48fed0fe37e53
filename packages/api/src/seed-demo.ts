import { seedDemo } from '@medlocker/db';
import { drawSealedPin } from './areas/orders/index.ts';
import { DEV_ADMIN_PASSWORD } from './config.ts';
import type { AppDeps } from './deps.ts';
import { hashPassword } from './sessions/passwords.ts';

/**
 * Seeds the demo and its admin into an empty database, as every start does (`npm start`, the e2e
 * harness). The api draws and seals the demo orders' PINs with SECRETS_KEY, so demo orders reveal their
 * PIN and open their slot at a locker like orders made through the api.
 */
export async function seedIfEmpty(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now'>,
  options: { printDevLogin?: boolean } = {},
): Promise<void> {
  const { config, logger } = deps;
  if (!config.seedAdminPassword) {
    logger.warn('no SEED_ADMIN_PASSWORD in production: the demo and first admin are not seeded');
    return;
  }
  const adminPasswordHash = await hashPassword(config.seedAdminPassword, config.passwordHashing);
  const { seeded } = await seedDemo(deps.db, {
    adminEmail: config.seedAdminEmail,
    adminPasswordHash,
    now: deps.now(),
    orderPin: (orderId) => drawSealedPin(config.secretsKey, orderId),
  });
  const isDefault = config.seedAdminPassword === DEV_ADMIN_PASSWORD;
  if (seeded) console.log('\n  Demo data seeded.');
  // Printed at every development start, so whoever runs `npm start` knows how to log in; a password
  // given through SEED_ADMIN_PASSWORD is never printed.
  if (isDefault) {
    if (options.printDevLogin !== false)
      console.log(`\n  Log in as ${config.seedAdminEmail} with the development password ${DEV_ADMIN_PASSWORD}\n`);
  } else if (seeded) {
    console.log(`\n  Log in as ${config.seedAdminEmail} with the SEED_ADMIN_PASSWORD you set.\n`);
  }
}
