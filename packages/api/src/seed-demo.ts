import { seedDemo, seedFirstAdmin } from '@medlocker/db';
import { drawSealedPin } from './areas/orders/index.ts';
import { useLocalJudopayForDemo } from './areas/payment-settings/index.ts';
import { DEV_ADMIN_PASSWORD } from './config/config.ts';
import type { AppDeps } from './context/deps.ts';
import { announce } from './log/logger.ts';
import { hashPassword } from './sessions/passwords.ts';

/**
 * Seeds an empty database at start: outside production the demo and its admin (`npm start`, the e2e
 * harness), whose orders' PINs the api draws and seals with SECRETS_KEY, so demo orders reveal their PIN
 * and open their slot at a locker like orders made through the api; in production the first admin alone
 * (SEED_ADMIN_EMAIL and SEED_ADMIN_PASSWORD), never any demo data.
 */
export async function seedIfEmpty(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now'>,
  options: { printDevLogin?: boolean } = {},
): Promise<void> {
  const { config, logger } = deps;
  if (!config.seedAdminPassword) {
    logger.warn('no SEED_ADMIN_PASSWORD in production: no first admin is seeded');
    return;
  }
  const adminPasswordHash = await hashPassword(config.seedAdminPassword, config.passwordHashing);
  const seed = config.production ? seedFirstAdmin : seedDemo;
  const { seeded } = await seed(deps.db, {
    adminEmail: config.seedAdminEmail,
    adminPasswordHash,
    now: deps.now(),
    orderPin: (orderId) => drawSealedPin(config.secretsKey, orderId),
  });
  // The demo's pharmacies that take payments take them on the local Judopay, when it runs.
  const onLocalJudopay = seeded && !config.production ? await useLocalJudopayForDemo(deps) : [];
  if (onLocalJudopay.length > 0) {
    logger.info('demo card payments on the local Judopay', { businesses: onLocalJudopay.join(', ') });
  }
  const isDefault = config.seedAdminPassword === DEV_ADMIN_PASSWORD;
  if (seeded) {
    const what = config.production ? 'first admin seeded' : 'demo data seeded';
    announce(
      logger,
      config.production,
      what,
      { admin: config.seedAdminEmail },
      `\n  ${what[0]?.toUpperCase()}${what.slice(1)}.`,
    );
  }
  // Printed at every development start, so whoever runs `npm start` knows how to log in; a password
  // given through SEED_ADMIN_PASSWORD is never printed (nor, in production, anything but JSON lines).
  if (isDefault) {
    if (options.printDevLogin !== false)
      console.log(`\n  Log in as ${config.seedAdminEmail} with the development password ${DEV_ADMIN_PASSWORD}\n`);
  } else if (seeded && !config.production) {
    console.log(`\n  Log in as ${config.seedAdminEmail} with the SEED_ADMIN_PASSWORD you set.\n`);
  }
}
