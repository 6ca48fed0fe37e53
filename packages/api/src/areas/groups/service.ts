import { AppError, type Group, type GroupInfo } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out } from '../../context/method.ts';
import {
  createOrganisation,
  type Db,
  filterOf,
  listMethod,
  type OrganisationKind,
  organisationMethods,
  reachOf,
  updateOrganisation,
} from '../businesses/index.ts';
import {
  findGroup,
  type GroupPatch,
  type GroupQuery,
  insertGroup,
  listGroupsByName,
  patchGroup,
} from './repository.ts';

const groups: OrganisationKind<Group, GroupPatch> = { entity: 'group', find: findGroup, patch: patchGroup };

/** getGroup, archiveGroup, unarchiveGroup, uploadLogo and updateLogo: as businesses answer them. */
export const {
  get: getGroup,
  archive: archiveGroup,
  unarchive: unarchiveGroup,
  uploadLogo,
  updateLogo,
} = organisationMethods(groups, (group) => ({ group }));

/** What a list asks of the repository, but the page. */
type Where = Omit<GroupQuery, 'after' | 'limit'>;

const toGroupInfo = ({ id, name, archived }: Group): GroupInfo => ({ id, name, archived });

export const listGroups = listMethod(
  listGroupsByName,
  'groups',
  (input: In<'groups/listGroups'>, actor): Where => ({
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filter),
    ...reachOf(actor),
  }),
);

export const listGroupsInfo = listMethod(
  listGroupsByName,
  'data',
  (input: In<'groups/listGroupsInfo'>): Where => ({ archived: 'any', ...filterOf(input.filter) }),
  toGroupInfo,
);

export const listAccessibleGroups = listMethod(
  listGroupsByName,
  'groups',
  (input: In<'groups/listAccessibleGroups'>, actor): Where => ({
    archived: 'active',
    ...filterOf(input.filter),
    ...reachOf(actor),
  }),
  toGroupInfo,
);

/** A parent must exist and must not be the group itself or one of its descendants. */
async function assertParent(db: Db, id: string, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  const problem = (message: string) =>
    new AppError('VALIDATION', message, [{ path: 'parentId', id: 'INVALID_FORMAT', message }]);
  let current: string | null = parentId;
  for (let depth = 0; current !== null; depth++) {
    if (current === id || depth > 50) throw problem('A group cannot be nested inside itself');
    const group = await findGroup(db, current);
    if (!group) throw problem(`No group with id ${current}`);
    current = group.parentId;
  }
}

const formFields = (input: In<'groups/createGroup'>) => ({
  name: input.name,
  email: input.email ?? null,
  address: {
    line1: input.address?.line1 ?? null,
    line2: input.address?.line2 ?? null,
    line3: input.address?.line3 ?? null,
    postTown: input.address?.postTown ?? null,
    postcode: input.address?.postcode ?? null,
  },
  parentId: input.parentId ?? null,
});

const editableFields = ['name', 'email', 'address', 'parentId'] as const;

export async function createGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'groups/createGroup'>,
): Out<'groups/createGroup'> {
  const now = deps.now();
  const id = Bun.randomUUIDv7();
  const group = await createOrganisation(
    groups,
    deps,
    actor,
    async (trx) => {
      await assertParent(trx, id, input.parentId ?? null);
      return insertGroup(trx, { id, ...formFields(input), now });
    },
    editableFields,
  );
  return { group };
}

export async function updateGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'groups/updateGroup'>,
): Out<'groups/updateGroup'> {
  const group = await updateOrganisation(groups, deps, actor, input.id, {
    patch: formFields(input),
    fields: editableFields,
    check: (trx) => assertParent(trx, input.id, input.parentId ?? null),
  });
  return { group };
}
