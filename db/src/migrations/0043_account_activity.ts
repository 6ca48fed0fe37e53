import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * A staff account's activity (issue 37 §2):
 * - `users.last_sign_in`: the last time the user signed in (password or single sign-on); null when never;
 * - `users.disabled_at`: set when the account was disabled (null: enabled); `disabled_reason` says why
 *   ('inactive': not signed in for the global setting's number of days); `enabled_at`: when support or an
 *   Admin last enabled it again (the days are counted from the latest of sign-in, creation and this);
 * - existing accounts: `last_sign_in` from their newest session, and `enabled_at` set to the upgrade's
 *   time, so nobody is disabled the first night after an upgrade for days counted before the product
 *   counted them (every account gets the full number of days from the upgrade);
 * - `global_settings.inactive_account_days`: after how many days without a sign-in an account is disabled.
 */

const UP = [
  'alter table users add column last_sign_in bigint',
  'alter table users add column disabled_at bigint',
  `alter table users add column disabled_reason text check (disabled_reason in ('inactive'))`,
  'alter table users add column enabled_at bigint',
  `update users set
     last_sign_in = (select max(s.created) from sessions s where s.user_id = users.id),
     enabled_at = (extract(epoch from clock_timestamp()) * 1000)::bigint`,
  `alter table global_settings add column inactive_account_days integer not null default 90
     check (inactive_account_days between 1 and 3650)`,
];

const DOWN = [
  'alter table global_settings drop column inactive_account_days',
  'alter table users drop column enabled_at',
  'alter table users drop column disabled_reason',
  'alter table users drop column disabled_at',
  'alter table users drop column last_sign_in',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
