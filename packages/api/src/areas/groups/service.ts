import { AppError, type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import type { Db } from '../businesses/index.ts';
import { assertLogoPath, changedFields, storeLogo } from '../businesses/index.ts';
import {
  findGroup,
  type GroupQuery,
  type GroupRow,
  insertGroup,
  listGroupRows,
  toGroup,
  toGroupInfo,
  updateGroupRow,
} from './repository.ts';

type Groups = Contract['groups'];
type In<M extends keyof Groups> = ParsedInputOf<Groups[M]>;
type Out<M extends keyof Groups> = OutputOf<Groups[M]>;

async function page(
  deps: AppDeps,
  _actor: StaffActor,
  input: { nextToken?: string | null },
  q: Omit<GroupQuery, 'limit'>,
) {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listGroupRows(deps.db, { ...q, ...(after ? { after } : {}), limit: infoPageSize });
  return pageOf(rows, infoPageSize, (r) => r.key);
}

const filterOf = (text: string | undefined) => (text?.trim() ? { filter: text } : {});

export async function listGroups(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listGroups'>,
): Promise<Out<'listGroups'>> {
  const p = await page(deps, actor, input, {
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filter),
    // Declared `scope: 'filtered'`: a pharmacy user sees the groups their roles name.
    ...(actor.kind === 'support' ? {} : { accessibleTo: actor.userId }),
  });
  return { groups: p.items.map((r) => toGroup(r.row)), nextToken: p.nextToken };
}

export async function listGroupsInfo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listGroupsInfo'>,
): Promise<Out<'listGroupsInfo'>> {
  const p = await page(deps, actor, input, { archived: 'any', ...filterOf(input.filter) });
  return { data: p.items.map((r) => toGroupInfo(r.row)), nextToken: p.nextToken };
}

export async function listAccessibleGroups(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listAccessibleGroups'>,
): Promise<Out<'listAccessibleGroups'>> {
  const support = actor.kind === 'support';
  const p = await page(deps, actor, input, {
    archived: 'active',
    ...filterOf(input.filter),
    ...(support ? {} : { accessibleTo: actor.userId }),
  });
  return { groups: p.items.map((r) => toGroupInfo(r.row)), nextToken: p.nextToken };
}

async function mustFind(db: Db, id: string, lock = false): Promise<GroupRow> {
  const row = await findGroup(db, id, { lock });
  if (!row) throw new AppError('NOT_FOUND', `No group with id ${id}`);
  return row;
}

/** SPEC §4: an archived group cannot be edited (409). */
function assertGroupEditable(row: GroupRow): void {
  if (row.archived_at !== null) {
    throw new AppError('CONFLICT', `The group ${row.name} is archived: unarchive it before changing it`);
  }
}

/** A parent must exist and must not be the group itself or one of its descendants. */
async function assertParent(db: Db, id: string | null, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  const problem = (message: string) =>
    new AppError('VALIDATION', message, [{ path: 'parentId', id: 'INVALID_FORMAT', message }]);
  let current: string | null = parentId;
  for (let depth = 0; current !== null; depth++) {
    if (current === id || depth > 50) throw problem('A group cannot be nested inside itself');
    const row = await findGroup(db, current);
    if (!row) throw problem(`No group with id ${current}`);
    current = row.parent_id;
  }
}

const formFields = (input: In<'createGroup'>) => ({
  name: input.name,
  email: input.email ?? null,
  address_line1: input.address?.line1 ?? null,
  address_line2: input.address?.line2 ?? null,
  address_line3: input.address?.line3 ?? null,
  post_town: input.address?.postTown ?? null,
  postcode: input.address?.postcode ?? null,
  parent_id: input.parentId ?? null,
});

const editableFields = ['name', 'email', 'address', 'parentId'] as const;

export async function getGroup(deps: AppDeps, _actor: StaffActor, input: In<'getGroup'>): Promise<Out<'getGroup'>> {
  return { group: toGroup(await mustFind(deps.db, input.id)) };
}

export async function createGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'createGroup'>,
): Promise<Out<'createGroup'>> {
  const now = deps.now();
  const id = Bun.randomUUIDv7();
  const row = await deps.db.transaction().execute(async (trx) => {
    await assertParent(trx, id, input.parentId ?? null);
    const row = await insertGroup(trx, {
      id,
      ...formFields(input),
      logo_path: null,
      logo_background_color: null,
      archived_at: null,
      archived_by_id: null,
      archived_by_display: null,
      created: now,
      updated: now,
    });
    await audit(trx, deps, actor, {
      action: 'group.create',
      entityType: 'group',
      entityId: id,
      details: { changed: [...editableFields] },
    });
    return row;
  });
  return { group: toGroup(row) };
}

export async function updateGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateGroup'>,
): Promise<Out<'updateGroup'>> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertGroupEditable(before);
    await assertParent(trx, input.id, input.parentId ?? null);
    const after = await updateGroupRow(trx, input.id, { ...formFields(input), updated: deps.now() });
    await audit(trx, deps, actor, {
      action: 'group.update',
      entityType: 'group',
      entityId: input.id,
      details: { changed: changedFields(toGroup(before), toGroup(after), [...editableFields]) },
    });
    return after;
  });
  return { group: toGroup(row) };
}

/** Archives or unarchives a group, recording who and when; a repeat changes nothing (see businesses). */
async function setArchived(id: string, archive: boolean, deps: AppDeps, actor: StaffActor): Promise<GroupRow> {
  const { row, changed } = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, id, true);
    if ((before.archived_at !== null) === archive) return { row: before, changed: false };
    const now = deps.now();
    const row = await updateGroupRow(trx, id, {
      archived_at: archive ? now : null,
      archived_by_id: archive ? actor.userId : null,
      archived_by_display: archive ? actor.displayName : null,
      updated: now,
    });
    await audit(trx, deps, actor, {
      action: archive ? 'group.archive' : 'group.unarchive',
      entityType: 'group',
      entityId: id,
      details: { changed: ['archived'] },
    });
    return { row, changed: true };
  });
  if (changed) {
    liveOf(deps).publish({
      businessId: '',
      groupId: id,
      message: {
        action: archive ? 'archived' : 'unarchived',
        params: { groupId: id, archived: toGroup(row).archived },
      },
    });
  }
  return row;
}

export async function archiveGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'archiveGroup'>,
): Promise<Out<'archiveGroup'>> {
  return { group: toGroup(await setArchived(input.id, true, deps, actor)) };
}

export async function unarchiveGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'unarchiveGroup'>,
): Promise<Out<'unarchiveGroup'>> {
  return { group: toGroup(await setArchived(input.id, false, deps, actor)) };
}

export async function uploadLogo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'uploadLogo'>,
): Promise<Out<'uploadLogo'>> {
  assertGroupEditable(await mustFind(deps.db, input.entityId));
  const path = await storeLogo(deps, input.dataUrl);
  await audit(deps.db, deps, actor, {
    action: 'group.logo.upload',
    entityType: 'group',
    entityId: input.entityId,
    details: { path },
  });
  return { path };
}

export async function updateLogo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateLogo'>,
): Promise<Out<'updateLogo'>> {
  await assertLogoPath(deps, input.path);
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertGroupEditable(before);
    const after = await updateGroupRow(trx, input.id, {
      logo_path: input.path,
      logo_background_color: input.path === null ? null : input.backgroundColor,
      updated: deps.now(),
    });
    await audit(trx, deps, actor, {
      action: 'group.logo.update',
      entityType: 'group',
      entityId: input.id,
      details: { changed: changedFields(toGroup(before), toGroup(after), ['logo']), path: input.path },
    });
    return after;
  });
  return { group: toGroup(row) };
}
