import { writeFile } from 'node:fs/promises';
import { test as setup } from '@playwright/test';
import { createUser, earlyUserFile } from './fixtures.ts';

/**
 * Runs before every spec (the chromium project depends on it): users that a spec needs created long before
 * it runs. The reset spec's user was invited (a password link) and the server sends at most one link a
 * minute to an address: made here, its minute has passed by the time reset.e2e.ts runs, instead of that
 * spec sleeping a minute.
 */
setup('users invited at the start of the run', async () => {
  const createdAt = Date.now();
  const user = await createUser({ role: { name: 'Support', accessLevels: [] } });
  await writeFile(earlyUserFile('reset'), JSON.stringify({ ...user, createdAt }));
});
