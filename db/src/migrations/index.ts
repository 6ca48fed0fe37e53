import type { Migration } from 'kysely';

/**
 * Every migration, in order. Migrations are frozen in time: they import nothing from packages/,
 * and once landed they are never edited; a change is a new migration.
 */
export const migrations: Record<string, Migration> = {};
