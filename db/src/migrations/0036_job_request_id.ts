import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * A job keeps the id of the request that queued it (X-Request-Id, at most 64 characters: http/request-meta.ts),
 * so the job runner's log lines for it can be matched with that request's. Null for work queued by a
 * schedule, at start, or by anything else outside a request. Nullable with no default: adding it rewrites
 * nothing, and older processes that insert jobs without it keep working during a rolling upgrade.
 */

const UP = ['alter table jobs add column request_id text'];

const DOWN = ['alter table jobs drop column request_id'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
