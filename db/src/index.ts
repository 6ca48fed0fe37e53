export * from './create-db.ts';
export { DataDirInUse, lockDataDir } from './data-dir-lock.ts';
export * from './empty-cluster.ts';
export * from './errors.ts';
export * from './migrate.ts';
export type * from './schema.ts';
export { type SeedDemoOptions, seedDemo, seedFirstAdmin } from './seed.ts';
