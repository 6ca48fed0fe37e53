/**
 * `bun db/scripts/make-test-templates.ts`: makes the migrated database the test files copy (PGlite's
 * tarball, and PostgreSQL's template when TEST_DATABASE_URL is set; db/src/test-templates.ts) unless it
 * is there already. `npm test` runs it before the parallel unit workers start, so they do not both make it.
 */
import { migratedPgliteTarball, postgresTemplate } from '../src/test-templates.ts';

await Promise.all([
  migratedPgliteTarball(),
  process.env.TEST_DATABASE_URL ? postgresTemplate(process.env.TEST_DATABASE_URL) : undefined,
]);
