import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { sql } from 'kysely';
import { createDb } from './create-db.ts';
import { EMPTY_CLUSTER_DIR, emptyClusterPath, emptyClusterTarball, installedPgliteVersion } from './empty-cluster.ts';
import { migrateToLatest } from './migrate.ts';

describe('the shipped empty PGlite cluster', () => {
  test('is the one made by the installed PGlite, and the only one', () => {
    const expected = basename(emptyClusterPath());
    const shipped = readdirSync(EMPTY_CLUSTER_DIR);
    // On a PGlite upgrade: `bun db/scripts/make-empty-cluster.ts` (new databases run initdb until then).
    expect({ pglite: installedPgliteVersion(), shipped }).toEqual({
      pglite: installedPgliteVersion(),
      shipped: [expected],
    });
  });

  test('a new database starts from it, migrates, and has pg_trgm', async () => {
    expect(await emptyClusterTarball()).toBeDefined();
    const opened = await createDb({ kind: 'pglite', dataDir: 'memory://' });
    try {
      await migrateToLatest(opened.db);
      const { rows } = await sql<{ ext: string; similar: number }>`
        select (select extname from pg_extension where extname = 'pg_trgm') as ext,
               similarity('boots', 'boot') as similar`.execute(opened.db);
      expect(rows[0]?.ext).toBe('pg_trgm');
      expect(rows[0]?.similar).toBeGreaterThan(0.3);
    } finally {
      await opened.close();
    }
  }, 60_000);
});
