import type { Migration } from 'kysely/migration';
import * as identity from './0001_identity.ts';

/**
 * Every migration, in order. Migrations are frozen in time: they import nothing from packages/,
 * and once landed they are never edited; a change is a new migration.
 */
export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
};
