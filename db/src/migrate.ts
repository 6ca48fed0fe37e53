import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

/** The migrations are listed in code, not read from disk, so the api works the same bundled or not. */
const provider: MigrationProvider = {
  getMigrations: async () => migrations as Record<string, Migration>,
};

/** Brings the schema up to date; throws with the failing migration's name and cause. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before (and regardless of) the typed schema.
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
