import { AppError, type Business, type BusinessInfo } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out } from '../../context/method.ts';
import type { Db } from './organisation-repository.ts';
import {
  assertEditable,
  createOrganisation,
  filterOf,
  listMethod,
  mustFind,
  type OrganisationKind,
  organisationMethods,
  reachOf,
  updateOrganisation,
} from './organisations.ts';
import {
  type BusinessPatch,
  type BusinessQuery,
  findBusiness,
  findGroupToLink,
  hasRoleOn,
  insertBusiness,
  listBusinessesByName,
  patchBusiness,
} from './repository.ts';

const businesses: OrganisationKind<Business, BusinessPatch> = {
  entity: 'business',
  find: findBusiness,
  patch: patchBusiness,
};

/** getBusiness, archiveBusiness, unarchiveBusiness, uploadLogo and updateLogo: as groups answer them. */
export const {
  get: getBusiness,
  archive: archiveBusiness,
  unarchive: unarchiveBusiness,
  uploadLogo,
  updateLogo,
} = organisationMethods(businesses, (business) => ({ business }));

const isSupport = (actor: StaffActor) => actor.kind === 'support';

/** What a list asks of the repository, but the page. */
type Where = Omit<BusinessQuery, 'after' | 'limit'>;

const toBusinessInfo = ({ id, name, address, archived }: Business): BusinessInfo => ({ id, name, address, archived });

export const listBusinesses = listMethod(
  listBusinessesByName,
  'businesses',
  (input: In<'businesses/listBusinesses'>, actor): Where => ({
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filterText),
    ...reachOf(actor),
  }),
);

// The Add-role picker shows archived businesses too, marked (the role's resource cell needs them).
export const listBusinessesInfo = listMethod(
  listBusinessesByName,
  'data',
  (input: In<'businesses/listBusinessesInfo'>): Where => ({ archived: 'any', ...filterOf(input.filter) }),
  toBusinessInfo,
);

const groupedBusinesses = listMethod(
  listBusinessesByName,
  'businesses',
  (input: In<'businesses/listGroupedBusinesses'>): Where => ({
    groupId: input.groupId,
    archived: input.archived ? 'any' : 'active',
    ...filterOf(input.filterText),
  }),
);

export async function listGroupedBusinesses(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/listGroupedBusinesses'>,
): Out<'businesses/listGroupedBusinesses'> {
  if (!(await findGroupToLink(deps.db, input.groupId)))
    throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
  return groupedBusinesses(deps, actor, input);
}

export const listUngroupedBusinesses = listMethod(
  listBusinessesByName,
  'businesses',
  (input: In<'businesses/listUngroupedBusinesses'>): Where => ({
    groupId: null,
    archived: 'active',
    ...filterOf(input.filterText),
  }),
);

export const listAccessibleBusinesses = listMethod(
  listBusinessesByName,
  'businesses',
  (input: In<'businesses/listAccessibleBusinesses'>, actor): Where => ({
    archived: 'active',
    ...filterOf(input.filterText),
    ...reachOf(actor),
  }),
  toBusinessInfo,
);

export async function getBusinessInfo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/getBusinessInfo'>,
): Out<'businesses/getBusinessInfo'> {
  const business = await mustFind(businesses, deps.db, input.id);
  if (!isSupport(actor) && !(await hasRoleOn(deps.db, actor.userId, business))) {
    throw new AppError('FORBIDDEN', 'You do not have access to this business');
  }
  return { business: toBusinessInfo(business) };
}

const formFields = (input: In<'businesses/createBusiness'>) => ({
  name: input.name,
  email: input.email,
  address: {
    line1: input.address.line1,
    line2: input.address.line2 ?? null,
    line3: input.address.line3 ?? null,
    postTown: input.address.postTown,
    postcode: input.address.postcode,
  },
  notificationEmails: (input.notificationEmails ?? []) as string[],
  keyholdersMobileNumbers: (input.keyholdersMobileNumbers ?? []) as string[],
});

const editableFields = ['name', 'email', 'address', 'notificationEmails', 'keyholdersMobileNumbers'] as const;

export async function createBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/createBusiness'>,
): Out<'businesses/createBusiness'> {
  const now = deps.now();
  const business = await createOrganisation(
    businesses,
    deps,
    actor,
    (trx) => insertBusiness(trx, { id: Bun.randomUUIDv7(), ...formFields(input), now }),
    editableFields,
  );
  return { business };
}

export async function updateBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/updateBusiness'>,
): Out<'businesses/updateBusiness'> {
  const business = await updateOrganisation(businesses, deps, actor, input.id, {
    patch: formFields(input),
    fields: editableFields,
  });
  return { business };
}

/**
 * The businesses that can join a group, locked: each must exist, not be archived and be in no other
 * group. All are refused together (404 when none exists, else 409) with a reason per business.
 */
async function linkableBusinesses(trx: Db, groupId: string, input: In<'businesses/linkGroup'>) {
  const problems: { path: string; id: string; message: string }[] = [];
  const found: Business[] = [];
  for (const id of new Set(input.businessIds)) {
    const path = `businessIds.${input.businessIds.indexOf(id)}`;
    const business = await findBusiness(trx, id, { lock: true });
    if (!business) problems.push({ path, id: 'NOT_FOUND', message: `No business with id ${id}` });
    else if (business.archived !== null)
      problems.push({ path, id: 'ARCHIVED', message: `The business ${business.name} is archived` });
    else if (business.groupId !== null && business.groupId !== groupId)
      problems.push({ path, id: 'IN_ANOTHER_GROUP', message: `The business ${business.name} is in another group` });
    else found.push(business);
  }
  if (problems.length > 0) {
    const code = problems.every((p) => p.id === 'NOT_FOUND') ? 'NOT_FOUND' : 'CONFLICT';
    throw new AppError(code, problems.map((p) => p.message).join('; '), problems);
  }
  return found;
}

/**
 * Puts a business in a group, or takes it out of its group (`to` null), audited as linkGroup or
 * unlinkGroup with the group it joined or left.
 */
async function moveToGroup(
  trx: Db,
  deps: AppDeps,
  actor: StaffActor,
  move: { businessId: string; from: string | null; to: string | null; now: number },
) {
  const after = await patchBusiness(trx, move.businessId, { groupId: move.to, updated: move.now });
  await audit(trx, deps, actor, {
    action: move.to === null ? 'business.unlinkGroup' : 'business.linkGroup',
    entityType: 'business',
    entityId: move.businessId,
    businessId: move.businessId,
    details: { changed: ['groupId'], groupId: move.to ?? move.from },
  });
  return after;
}

export async function linkGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/linkGroup'>,
): Out<'businesses/linkGroup'> {
  const linked = await deps.db.transaction().execute(async (trx) => {
    const group = await findGroupToLink(trx, input.groupId, { lock: true });
    if (!group) throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
    if (group.archived) {
      throw new AppError(
        'CONFLICT',
        `The group ${group.name} is archived: businesses cannot be linked to it until it is unarchived`,
      );
    }
    const now = deps.now();
    const linked: string[] = [];
    for (const business of await linkableBusinesses(trx, group.id, input)) {
      if (business.groupId === group.id) continue;
      await moveToGroup(trx, deps, actor, { businessId: business.id, from: business.groupId, to: group.id, now });
      linked.push(business.id);
    }
    return linked;
  });
  return { linked };
}

export async function unlinkGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'businesses/unlinkGroup'>,
): Out<'businesses/unlinkGroup'> {
  const business = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(businesses, trx, input.id, true);
    assertEditable(businesses, before);
    if (before.groupId === null) return before;
    return moveToGroup(trx, deps, actor, { businessId: input.id, from: before.groupId, to: null, now: deps.now() });
  });
  return { business };
}
