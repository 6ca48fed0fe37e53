import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import { resourceName } from '../../rows/resource-name.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A pending role invitation (docs/decisions/auth.md, Role invitations). */
export type InvitationRecord = {
  id: string;
  userId: string;
  /** The invitee's email as stored on their account. */
  email: string;
  roleName: 'Business' | 'Group';
  resourceType: 'business' | 'group';
  resourceId: string;
  /** Null when the business or group is gone. */
  resourceName: string | null;
  accessLevels: string[];
  description: string;
  invitedById: string | null;
  /** The inviting user's 'Given Family', or their email when both are blank; null when the account is gone. */
  invitedBy: string | null;
  created: number;
  expires: number;
};

export type NewInvitation = {
  userId: string;
  roleName: 'Business' | 'Group';
  resourceType: 'business' | 'group';
  resourceId: string;
  accessLevels: string[];
  description: string;
  invitedBy: string;
  now: number;
  expires: number;
};

/** Stores an invitation, or refreshes the user's pending one for the same role (levels, inviter, expiry). */
export async function upsertInvitation(db: Db, invitation: NewInvitation): Promise<string> {
  const row = await db
    .insertInto('role_invitations')
    .values({
      id: Bun.randomUUIDv7(),
      user_id: invitation.userId,
      name: invitation.roleName,
      resource_type: invitation.resourceType,
      resource_id: invitation.resourceId,
      access_levels: sql`${sql.val(invitation.accessLevels)}::text[]`,
      description: invitation.description,
      invited_by: invitation.invitedBy,
      created: invitation.now,
      expires: invitation.expires,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'name', 'resource_id']).doUpdateSet({
        access_levels: sql`excluded.access_levels`,
        description: sql`excluded.description`,
        invited_by: sql`excluded.invited_by`,
        created: sql`excluded.created`,
        expires: sql`excluded.expires`,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function invitations(db: Db) {
  return db
    .selectFrom('role_invitations')
    .innerJoin('users as invitee', 'invitee.id', 'role_invitations.user_id')
    .leftJoin('users as inviter', 'inviter.id', 'role_invitations.invited_by')
    .select([
      'role_invitations.id',
      'role_invitations.user_id',
      'invitee.email',
      'role_invitations.name',
      'role_invitations.resource_type',
      'role_invitations.resource_id',
      'role_invitations.access_levels',
      'role_invitations.description',
      'role_invitations.invited_by',
      'inviter.email as inviter_email',
      'inviter.given_name as inviter_given_name',
      'inviter.family_name as inviter_family_name',
      'role_invitations.created',
      'role_invitations.expires',
      resourceName('role_invitations').as('resource_name'),
    ])
    .orderBy('role_invitations.created')
    .orderBy('role_invitations.id');
}

type Row = Awaited<ReturnType<ReturnType<typeof invitations>['execute']>>[number];

function toInvitation(row: Row): InvitationRecord {
  const inviterName = `${row.inviter_given_name ?? ''} ${row.inviter_family_name ?? ''}`.trim();
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    roleName: row.name,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    accessLevels: row.access_levels,
    description: row.description,
    invitedById: row.invited_by,
    invitedBy: row.invited_by === null ? null : inviterName || row.inviter_email,
    created: row.created,
    expires: row.expires,
  };
}

/** One invitation by id, expired or not. */
export async function findInvitation(db: Db, id: string): Promise<InvitationRecord | undefined> {
  const row = await invitations(db).where('role_invitations.id', '=', id).executeTakeFirst();
  return row && toInvitation(row);
}

/** A user's invitations that have not expired, oldest first. */
export async function invitationsOfUser(db: Db, userId: string, now: number): Promise<InvitationRecord[]> {
  const rows = await invitations(db)
    .where('role_invitations.user_id', '=', userId)
    .where('role_invitations.expires', '>', now)
    .execute();
  return rows.map(toInvitation);
}

/** The invitations to a role on one business or group that have not expired, oldest first. */
export async function invitationsToResource(
  db: Db,
  roleName: 'Business' | 'Group',
  resourceId: string,
  now: number,
): Promise<InvitationRecord[]> {
  const rows = await invitations(db)
    .where('role_invitations.name', '=', roleName)
    .where('role_invitations.resource_id', '=', resourceId)
    .where('role_invitations.expires', '>', now)
    .execute();
  return rows.map(toInvitation);
}

/** Deletes an invitation; false when it was already gone (accepted, declined or cancelled meanwhile). */
export async function deleteInvitation(db: Db, id: string): Promise<boolean> {
  const rows = await db.deleteFrom('role_invitations').where('id', '=', id).returning('id').execute();
  return rows.length > 0;
}
