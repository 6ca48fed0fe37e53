import { AppError, type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { liveOf } from '../../hubs/live.ts';
import type { AuthedContext } from '../../rpc/context.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import { changedFields } from '../businesses/changes.ts';
import { storeLogo } from '../businesses/logos.ts';
import type { Db } from '../businesses/repository.ts';
import { assertLogoPath } from '../businesses/service.ts';
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

async function page(ctx: AuthedContext, input: { nextToken?: string | null }, q: Omit<GroupQuery, 'limit'>) {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listGroupRows(ctx.deps.db, { ...q, ...(after ? { after } : {}), limit: infoPageSize });
  return pageOf(rows, infoPageSize, (r) => r.key);
}

const filterOf = (text: string | undefined) => (text?.trim() ? { filter: text } : {});

export async function listGroups(input: In<'listGroups'>, ctx: AuthedContext): Promise<Out<'listGroups'>> {
  const p = await page(ctx, input, {
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filter),
    // Declared `scope: 'filtered'`: a pharmacy user sees the groups their roles name.
    ...(ctx.principal.scopes.includes('support') ? {} : { accessibleTo: ctx.principal.userId }),
  });
  return { groups: p.items.map((r) => toGroup(r.row)), nextToken: p.nextToken };
}

export async function listGroupsInfo(input: In<'listGroupsInfo'>, ctx: AuthedContext): Promise<Out<'listGroupsInfo'>> {
  const p = await page(ctx, input, { archived: 'any', ...filterOf(input.filter) });
  return { data: p.items.map((r) => toGroupInfo(r.row)), nextToken: p.nextToken };
}

export async function listAccessibleGroups(
  input: In<'listAccessibleGroups'>,
  ctx: AuthedContext,
): Promise<Out<'listAccessibleGroups'>> {
  const support = ctx.principal.scopes.includes('support');
  const p = await page(ctx, input, {
    archived: 'active',
    ...filterOf(input.filter),
    ...(support ? {} : { accessibleTo: ctx.principal.userId }),
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

export async function getGroup(input: In<'getGroup'>, ctx: AuthedContext): Promise<Out<'getGroup'>> {
  return { group: toGroup(await mustFind(ctx.deps.db, input.id)) };
}

export async function createGroup(input: In<'createGroup'>, ctx: AuthedContext): Promise<Out<'createGroup'>> {
  const now = ctx.deps.now();
  const id = Bun.randomUUIDv7();
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
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
    await audit(trx, ctx, {
      action: 'group.create',
      entityType: 'group',
      entityId: id,
      details: { changed: [...editableFields] },
    });
    return row;
  });
  return { group: toGroup(row) };
}

export async function updateGroup(input: In<'updateGroup'>, ctx: AuthedContext): Promise<Out<'updateGroup'>> {
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertGroupEditable(before);
    await assertParent(trx, input.id, input.parentId ?? null);
    const after = await updateGroupRow(trx, input.id, { ...formFields(input), updated: ctx.deps.now() });
    await audit(trx, ctx, {
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
async function setArchived(id: string, archive: boolean, ctx: AuthedContext): Promise<GroupRow> {
  const { row, changed } = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, id, true);
    if ((before.archived_at !== null) === archive) return { row: before, changed: false };
    const now = ctx.deps.now();
    const row = await updateGroupRow(trx, id, {
      archived_at: archive ? now : null,
      archived_by_id: archive ? ctx.principal.userId : null,
      archived_by_display: archive ? ctx.principal.displayName : null,
      updated: now,
    });
    await audit(trx, ctx, {
      action: archive ? 'group.archive' : 'group.unarchive',
      entityType: 'group',
      entityId: id,
      details: { changed: ['archived'] },
    });
    return { row, changed: true };
  });
  if (changed) {
    liveOf(ctx.deps).publish({
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

export async function archiveGroup(input: In<'archiveGroup'>, ctx: AuthedContext): Promise<Out<'archiveGroup'>> {
  return { group: toGroup(await setArchived(input.id, true, ctx)) };
}

export async function unarchiveGroup(input: In<'unarchiveGroup'>, ctx: AuthedContext): Promise<Out<'unarchiveGroup'>> {
  return { group: toGroup(await setArchived(input.id, false, ctx)) };
}

export async function uploadLogo(input: In<'uploadLogo'>, ctx: AuthedContext): Promise<Out<'uploadLogo'>> {
  assertGroupEditable(await mustFind(ctx.deps.db, input.entityId));
  const path = await storeLogo(ctx.deps, input.dataUrl);
  await audit(ctx.deps.db, ctx, {
    action: 'group.logo.upload',
    entityType: 'group',
    entityId: input.entityId,
    details: { path },
  });
  return { path };
}

export async function updateLogo(input: In<'updateLogo'>, ctx: AuthedContext): Promise<Out<'updateLogo'>> {
  await assertLogoPath(ctx, input.path);
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertGroupEditable(before);
    const after = await updateGroupRow(trx, input.id, {
      logo_path: input.path,
      logo_background_color: input.path === null ? null : input.backgroundColor,
      updated: ctx.deps.now(),
    });
    await audit(trx, ctx, {
      action: 'group.logo.update',
      entityType: 'group',
      entityId: input.id,
      details: { changed: changedFields(toGroup(before), toGroup(after), ['logo']), path: input.path },
    });
    return after;
  });
  return { group: toGroup(row) };
}
