import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Role invitations (issue 35 §1). A pharmacy Admin who adds someone outside their reach (a new email, or
 * a person of another business, or support staff) no longer attaches a role: the role waits here until the
 * person accepts it after signing in (then it becomes a user_roles row), declines it, an Admin of the
 * business or group cancels it, or it expires.
 * - `user_id`: the invitee (a new email's account is made at once, with no password and no role);
 * - `name`, `resource_type`, `resource_id`, `access_levels`, `description`: the role as it will be stored;
 * - `invited_by`: the Admin who invited (kept when that user is deleted: null);
 * - one pending invitation per user and role: inviting again refreshes it.
 */

const UP = [
  `create table role_invitations (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    name text not null check (name in ('Business', 'Group')),
    resource_type text not null check (resource_type in ('business', 'group')),
    resource_id text not null,
    access_levels text[] not null default '{}',
    description text not null default '',
    invited_by text references users (id) on delete set null,
    created bigint not null,
    expires bigint not null
  )`,
  `create unique index role_invitations_user_role_key on role_invitations (user_id, name, resource_id)`,
  `create index role_invitations_resource_idx on role_invitations (resource_id)`,
];

const DOWN = ['drop table role_invitations'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
