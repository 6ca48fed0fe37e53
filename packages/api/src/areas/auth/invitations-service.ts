import { AppError, type RoleInvitation, roleInvitationDays } from '@medlocker/core';
import { callerOf, enforceRoleScope, reachesRole } from '../../access/enforce.ts';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { assertGroupAcceptsMembers } from '../groups/index.ts';
import { type Account, findUserByEmail, findUserById } from '../users/index.ts';
import {
  deleteInvitation,
  findInvitation,
  type InvitationRecord,
  invitationsOfUser,
  invitationsToResource,
  upsertInvitation,
} from './invitations-repository.ts';
import { invitationMail, invitationsLink, linkOrigin, type Site } from './mails.ts';
import { type RoleToStore, resourceName, userRoleRefs } from './repository.ts';
import { roleGrantRefusal } from './role-rules.ts';
import { createAccount, giveRole } from './role-writes.ts';
import { sendPasswordLink } from './service.ts';

/*
 * Role invitations (docs/decisions/auth.md "Role invitations"). A pharmacy Admin's Add user
 * attaches a role at once only to a colleague: someone who already holds a role on what the Admin
 * administers, holds no Support or Developer role, and whose identity provider allows the new role.
 * Anyone else (a new email, another business's user, support staff) is invited, with the same answer
 * either way, and gets the role only by accepting it, signed in as themselves.
 */

type Trx = AppDeps['db'];

const invitationMs = roleInvitationDays * 24 * 60 * 60 * 1000;

/** Business and Group roles only reach this far: assertPharmacyMayAdd refused every other. */
type InvitableRole = RoleToStore & {
  name: 'Business' | 'Group';
  resourceType: 'business' | 'group';
  resourceId: string;
};

const invitable = (role: RoleToStore): role is InvitableRole =>
  (role.name === 'Business' || role.name === 'Group') && role.resourceType !== null && role.resourceId !== null;

/** Whether the user is already one of the Admin's people, and may be given these roles at once. */
async function isColleague(trx: Trx, actor: StaffActor, user: Account, roles: RoleToStore[]): Promise<boolean> {
  const caller = callerOf(actor);
  const held = await userRoleRefs(trx, user.id);
  const inReach = held.some((r) =>
    reachesRole(caller, { name: r.name, resource: r.resourceId, resourceType: r.resourceType }, { admin: true }),
  );
  return inReach && (await roleGrantRefusal(trx, user, roles)) === null;
}

/**
 * A pharmacy Admin's Add user (after assertPharmacyMayAdd and the roles' own checks): a colleague gets
 * the roles at once; anyone else an invitation per role, and an email (a new account's is its
 * set-password link). The answer never says whether the email had an account.
 */
export async function addAsPharmacyAdmin(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'auth/addRoles'>,
  roles: RoleToStore[],
  site: Site,
): Out<'auth/addRoles'> {
  const now = deps.now();
  const done = await deps.db.transaction().execute(async (trx) => {
    let user = await findUserByEmail(trx, input.email);
    if (user && (await isColleague(trx, actor, user, roles))) {
      for (const role of roles) await giveRole(trx, deps, actor, user.id, role, now);
      return { user, added: true, created: false };
    }
    let created = false;
    if (!user) {
      const account = { email: input.email, frontEnd: input.frontEnd, identityProviderId: null };
      user = await createAccount(trx, deps, actor, account, now);
      created = true;
    }
    for (const role of roles.filter(invitable)) {
      const { name: roleName, resourceType, resourceId, accessLevels, description } = role;
      const id = await upsertInvitation(trx, {
        ...{ userId: user.id, roleName, resourceType, resourceId, accessLevels, description },
        ...{ invitedBy: actor.userId, now, expires: now + invitationMs },
      });
      await audit(trx, deps, actor, {
        action: 'role.invite',
        entityType: 'user',
        entityId: user.id,
        businessId: resourceType === 'business' ? resourceId : null,
        details: { invitationId: id, role: roleName, resourceType, resource: resourceId, accessLevels },
      });
    }
    return { user, added: false, created };
  });
  if (done.added) {
    liveOf(deps).accessChanged(done.user.id);
    return { outcome: 'added', userId: done.user.id, created: false };
  }
  if (done.created) await sendPasswordLink(deps, actor, site, done.user, 'invite');
  else await sendInvitationMail(deps, actor, site, done.user, roles);
  return { outcome: 'invited' };
}

/** An existing account's invitation email: sent in the background, a failure only logged. */
async function sendInvitationMail(deps: AppDeps, actor: StaffActor, site: Site, user: Account, roles: RoleToStore[]) {
  const origin = linkOrigin(deps, site);
  const role = roles.find(invitable);
  if (!origin || !role) return;
  const named = (await resourceName(deps.db, role.resourceType, role.resourceId)) ?? `the ${role.resourceType}`;
  deps.mailer
    .send(invitationMail(user.email, named, invitationsLink(origin), deps.config.productName))
    .catch((error: unknown) =>
      deps.logger.error('invitation email failed', {
        requestId: actor.origin.requestId,
        userId: user.id,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
}

const mine = (actor: StaffActor, invitation: InvitationRecord | undefined): InvitationRecord => {
  if (!invitation || invitation.userId !== actor.userId) throw new AppError('NOT_FOUND', 'No such invitation');
  return invitation;
};

export const listMyInvitations: Service<'auth/listMyInvitations'> = async (deps, actor, _input) => {
  const rows = await invitationsOfUser(deps.db, actor.userId, deps.now());
  return {
    invitations: rows.map((r) => ({
      id: r.id,
      roleName: r.roleName,
      resourceType: r.resourceType,
      resourceId: r.resourceId,
      resourceName: r.resourceName,
      accessLevels: r.accessLevels,
      description: r.description,
      invitedBy: r.invitedBy,
      created: r.created,
      expires: r.expires,
    })),
  };
};

/**
 * The invitee takes the role: refused (409, nothing changed) when expired, when they hold a Support or
 * Developer role, or when their identity provider would then refuse them; else the role is added,
 * audited as theirs, and the invitation is used up.
 */
export const acceptInvitation: Service<'auth/acceptInvitation'> = async (deps, actor, input) => {
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const invitation = mine(actor, await findInvitation(trx, input.id));
    if (invitation.expires <= now) throw new AppError('CONFLICT', 'This invitation has expired: ask for a new one');
    if (invitation.resourceName === null)
      throw new AppError('NOT_FOUND', `No ${invitation.resourceType} with id ${invitation.resourceId}`);
    if (invitation.resourceType === 'group') await assertGroupAcceptsMembers(trx, invitation.resourceId, 'users');
    const role: RoleToStore = {
      name: invitation.roleName,
      resourceType: invitation.resourceType,
      resourceId: invitation.resourceId,
      accessLevels: invitation.accessLevels,
      description: invitation.description,
    };
    const user = await findUserById(trx, actor.userId);
    if (!user) throw new AppError('NOT_FOUND', 'No such user');
    const refusal = await roleGrantRefusal(trx, user, [role]);
    if (refusal) throw new AppError('CONFLICT', refusal);
    if (!(await deleteInvitation(trx, invitation.id))) throw new AppError('NOT_FOUND', 'No such invitation');
    await giveRole(trx, deps, actor, actor.userId, role, now, {
      invitationId: invitation.id,
      invitedBy: invitation.invitedById,
    });
  });
  liveOf(deps).accessChanged(actor.userId);
  return { ok: true };
};

export const declineInvitation: Service<'auth/declineInvitation'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (trx) => {
    const invitation = mine(actor, await findInvitation(trx, input.id));
    if (!(await deleteInvitation(trx, invitation.id))) throw new AppError('NOT_FOUND', 'No such invitation');
    await audit(trx, deps, actor, {
      action: 'role.invitation.decline',
      entityType: 'user',
      entityId: actor.userId,
      details: { invitationId: invitation.id, role: invitation.roleName, resource: invitation.resourceId },
    });
  });
  return { ok: true };
};

const forAdmins = (r: InvitationRecord): RoleInvitation => ({
  id: r.id,
  email: r.email,
  roleName: r.roleName,
  accessLevels: r.accessLevels,
  invitedBy: r.invitedBy,
  created: r.created,
  expires: r.expires,
});

export const listInvitations: Service<'auth/listInvitations'> = async (deps, actor, input) => {
  enforceRoleScope(callerOf(actor), [{ name: input.roleName, resource: input.roleResource }], { admin: true });
  const rows = await invitationsToResource(deps.db, input.roleName, input.roleResource, deps.now());
  return { invitations: rows.map(forAdmins) };
};

export const cancelInvitation: Service<'auth/cancelInvitation'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (trx) => {
    const invitation = await findInvitation(trx, input.id);
    if (!invitation) throw new AppError('NOT_FOUND', 'No such invitation');
    enforceRoleScope(callerOf(actor), [{ name: invitation.roleName, resource: invitation.resourceId }], {
      admin: true,
    });
    if (!(await deleteInvitation(trx, invitation.id))) throw new AppError('NOT_FOUND', 'No such invitation');
    await audit(trx, deps, actor, {
      action: 'role.invitation.cancel',
      entityType: 'user',
      entityId: invitation.userId,
      businessId: invitation.resourceType === 'business' ? invitation.resourceId : null,
      details: { invitationId: invitation.id, role: invitation.roleName, resource: invitation.resourceId },
    });
  });
  return { ok: true };
};
