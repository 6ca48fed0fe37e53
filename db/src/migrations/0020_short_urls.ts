import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Short links (`/u/{code}` on PUBLIC_URL) that messages carry instead of long portal addresses, and each
 * staff member's own dismissals of notifications (docs/decisions/messaging.md, Notifications are dismissed per user).
 */

const up_ = [
  // 0006's table (id, target_url) was never written to: replaced by one that knows its order and expiry.
  'drop table short_urls',
  // code: 16 random bytes, base64url (128 bits); a link to an order lives while the order does.
  `create table short_urls (
    code text primary key,
    target text not null,
    order_id text,
    business_id text references businesses (id) on delete restrict,
    expires_at bigint not null,
    created bigint not null
  )`,
  `create index short_urls_order_idx on short_urls (business_id, order_id) where order_id is not null`,

  // One row per user and notification they dismissed: one person clearing their bell leaves the rest's.
  `create table notification_dismissals (
    user_id text not null,
    notification_id text not null references notifications (id) on delete cascade,
    dismissed_at bigint not null,
    dismissed_by_display text not null,
    in_bulk boolean not null,
    primary key (user_id, notification_id)
  )`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of up_) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['notification_dismissals', 'short_urls']) await sql.raw(`drop table ${t}`).execute(db);
  await sql
    .raw(
      'create table short_urls (id text primary key, target_url text not null, created bigint not null, updated bigint not null)',
    )
    .execute(db);
}
