/** The database's tables as Kysely sees them. Regenerate with `npm run db:types` after a migration. */
// biome-ignore lint/complexity/noBannedTypes: filled in by the first migration's tables.
export type Database = {};
