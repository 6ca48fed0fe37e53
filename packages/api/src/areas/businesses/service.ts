import { AppError, type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { liveOf } from '../../hubs/live.ts';
import type { AuthedContext } from '../../rpc/context.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import { findGroup } from '../groups/repository.ts';
import { changedFields } from './changes.ts';
import { logoExists, storeLogo } from './logos.ts';
import {
  type BusinessQuery,
  type BusinessRow,
  type Db,
  findBusiness,
  hasRoleOn,
  insertBusiness,
  listBusinessRows,
  toBusiness,
  toBusinessInfo,
  updateBusinessRow,
} from './repository.ts';

type Businesses = Contract['businesses'];
type In<M extends keyof Businesses> = ParsedInputOf<Businesses[M]>;
type Out<M extends keyof Businesses> = OutputOf<Businesses[M]>;

const isSupport = (ctx: AuthedContext) => ctx.principal.scopes.includes('support');

async function page(ctx: AuthedContext, input: { nextToken?: string | null }, q: Omit<BusinessQuery, 'limit'>) {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listBusinessRows(ctx.deps.db, { ...q, ...(after ? { after } : {}), limit: infoPageSize });
  return pageOf(rows, infoPageSize, (r) => r.key);
}

const filterOf = (text: string | undefined) => (text?.trim() ? { filter: text } : {});

export async function listBusinesses(input: In<'listBusinesses'>, ctx: AuthedContext): Promise<Out<'listBusinesses'>> {
  const p = await page(ctx, input, {
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filterText),
    // Declared `scope: 'filtered'`: a pharmacy user sees the businesses their roles reach.
    ...(isSupport(ctx) ? {} : { accessibleTo: ctx.principal.userId }),
  });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listBusinessesInfo(
  input: In<'listBusinessesInfo'>,
  ctx: AuthedContext,
): Promise<Out<'listBusinessesInfo'>> {
  // The Add-role picker shows archived businesses too, marked (the role's resource cell needs them).
  const p = await page(ctx, input, { archived: 'any', ...filterOf(input.filter) });
  return { data: p.items.map((r) => toBusinessInfo(r.row)), nextToken: p.nextToken };
}

export async function listGroupedBusinesses(
  input: In<'listGroupedBusinesses'>,
  ctx: AuthedContext,
): Promise<Out<'listGroupedBusinesses'>> {
  if (!(await findGroup(ctx.deps.db, input.groupId)))
    throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
  const p = await page(ctx, input, {
    groupId: input.groupId,
    archived: input.archived ? 'any' : 'active',
    ...filterOf(input.filterText),
  });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listUngroupedBusinesses(
  input: In<'listUngroupedBusinesses'>,
  ctx: AuthedContext,
): Promise<Out<'listUngroupedBusinesses'>> {
  const p = await page(ctx, input, { groupId: null, archived: 'active', ...filterOf(input.filterText) });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listAccessibleBusinesses(
  input: In<'listAccessibleBusinesses'>,
  ctx: AuthedContext,
): Promise<Out<'listAccessibleBusinesses'>> {
  const p = await page(ctx, input, {
    archived: 'active',
    ...filterOf(input.filterText),
    ...(isSupport(ctx) ? {} : { accessibleTo: ctx.principal.userId }),
  });
  return { businesses: p.items.map((r) => toBusinessInfo(r.row)), nextToken: p.nextToken };
}

async function mustFind(db: Db, id: string, lock = false): Promise<BusinessRow> {
  const row = await findBusiness(db, id, { lock });
  if (!row) throw new AppError('NOT_FOUND', `No business with id ${id}`);
  return row;
}

/** SPEC §4: an archived business cannot be edited (409, with a message the console shows as is). */
export function assertBusinessEditable(row: BusinessRow): void {
  if (row.archived_at !== null) {
    throw new AppError('CONFLICT', `The business ${row.name} is archived: unarchive it before changing it`);
  }
}

export async function getBusiness(input: In<'getBusiness'>, ctx: AuthedContext): Promise<Out<'getBusiness'>> {
  return { business: toBusiness(await mustFind(ctx.deps.db, input.id)) };
}

export async function getBusinessInfo(
  input: In<'getBusinessInfo'>,
  ctx: AuthedContext,
): Promise<Out<'getBusinessInfo'>> {
  const row = await mustFind(ctx.deps.db, input.id);
  if (!isSupport(ctx) && !(await hasRoleOn(ctx.deps.db, ctx.principal.userId, row))) {
    throw new AppError('FORBIDDEN', 'You do not have access to this business');
  }
  return { business: toBusinessInfo(row) };
}

const formFields = (input: In<'createBusiness'>) => ({
  name: input.name,
  email: input.email,
  address_line1: input.address.line1,
  address_line2: input.address.line2 ?? null,
  address_line3: input.address.line3 ?? null,
  post_town: input.address.postTown,
  postcode: input.address.postcode,
  notification_emails: (input.notificationEmails ?? []) as string[],
  keyholders_mobile_numbers: (input.keyholdersMobileNumbers ?? []) as string[],
});

const editableFields = ['name', 'email', 'address', 'notificationEmails', 'keyholdersMobileNumbers'] as const;

export async function createBusiness(input: In<'createBusiness'>, ctx: AuthedContext): Promise<Out<'createBusiness'>> {
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const row = await insertBusiness(trx, {
      id: Bun.randomUUIDv7(),
      ...formFields(input),
      group_id: null,
      archived_at: null,
      archived_by_id: null,
      archived_by_display: null,
      logo_path: null,
      logo_background_color: null,
      created: now,
      updated: now,
    });
    await audit(trx, ctx, {
      action: 'business.create',
      entityType: 'business',
      entityId: row.id,
      businessId: row.id,
      details: { changed: [...editableFields] },
    });
    return row;
  });
  return { business: toBusiness(row) };
}

export async function updateBusiness(input: In<'updateBusiness'>, ctx: AuthedContext): Promise<Out<'updateBusiness'>> {
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    const after = await updateBusinessRow(trx, input.id, { ...formFields(input), updated: ctx.deps.now() });
    const changed = changedFields(toBusiness(before), toBusiness(after), [...editableFields]);
    await audit(trx, ctx, {
      action: 'business.update',
      entityType: 'business',
      entityId: input.id,
      businessId: input.id,
      details: { changed },
    });
    return after;
  });
  return { business: toBusiness(row) };
}

/**
 * Archives or unarchives, recording who and when; doing it twice is harmless (no second audit entry
 * or push), so a bulk run from the cli can be repeated after a partial failure.
 */
async function setArchived(id: string, archive: boolean, ctx: AuthedContext): Promise<BusinessRow> {
  const { row, changed } = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, id, true);
    if ((before.archived_at !== null) === archive) return { row: before, changed: false };
    const now = ctx.deps.now();
    const row = await updateBusinessRow(trx, id, {
      archived_at: archive ? now : null,
      archived_by_id: archive ? ctx.principal.userId : null,
      archived_by_display: archive ? ctx.principal.displayName : null,
      updated: now,
    });
    await audit(trx, ctx, {
      action: archive ? 'business.archive' : 'business.unarchive',
      entityType: 'business',
      entityId: id,
      businessId: id,
      details: { changed: ['archived'] },
    });
    return { row, changed: true };
  });
  if (changed) {
    const business = toBusiness(row);
    liveOf(ctx.deps).publish({
      businessId: id,
      message: { action: archive ? 'archived' : 'unarchived', params: { businessId: id, archived: business.archived } },
    });
  }
  return row;
}

export async function archiveBusiness(
  input: In<'archiveBusiness'>,
  ctx: AuthedContext,
): Promise<Out<'archiveBusiness'>> {
  return { business: toBusiness(await setArchived(input.id, true, ctx)) };
}

export async function unarchiveBusiness(
  input: In<'unarchiveBusiness'>,
  ctx: AuthedContext,
): Promise<Out<'unarchiveBusiness'>> {
  return { business: toBusiness(await setArchived(input.id, false, ctx)) };
}

export async function linkGroup(input: In<'linkGroup'>, ctx: AuthedContext): Promise<Out<'linkGroup'>> {
  const ids = [...new Set(input.businessIds)];
  const linked = await ctx.deps.db.transaction().execute(async (trx) => {
    const group = await findGroup(trx, input.groupId, { lock: true });
    if (!group) throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
    if (group.archived_at !== null) {
      throw new AppError(
        'CONFLICT',
        `The group ${group.name} is archived: businesses cannot be linked to it until it is unarchived`,
      );
    }
    const problems: { path: string; id: string; message: string }[] = [];
    const rows: BusinessRow[] = [];
    for (const id of ids) {
      const path = `businessIds.${input.businessIds.indexOf(id)}`;
      const row = await findBusiness(trx, id, { lock: true });
      if (!row) problems.push({ path, id: 'NOT_FOUND', message: `No business with id ${id}` });
      else if (row.archived_at !== null)
        problems.push({ path, id: 'ARCHIVED', message: `The business ${row.name} is archived` });
      else if (row.group_id !== null && row.group_id !== group.id)
        problems.push({ path, id: 'IN_ANOTHER_GROUP', message: `The business ${row.name} is in another group` });
      else rows.push(row);
    }
    if (problems.length > 0) {
      const code = problems.every((p) => p.id === 'NOT_FOUND') ? 'NOT_FOUND' : 'CONFLICT';
      throw new AppError(code, problems.map((p) => p.message).join('; '), problems);
    }
    const now = ctx.deps.now();
    const linked: string[] = [];
    for (const row of rows) {
      if (row.group_id === group.id) continue;
      await updateBusinessRow(trx, row.id, { group_id: group.id, updated: now });
      await audit(trx, ctx, {
        action: 'business.linkGroup',
        entityType: 'business',
        entityId: row.id,
        businessId: row.id,
        details: { changed: ['groupId'], groupId: group.id },
      });
      linked.push(row.id);
    }
    return linked;
  });
  return { linked };
}

export async function unlinkGroup(input: In<'unlinkGroup'>, ctx: AuthedContext): Promise<Out<'unlinkGroup'>> {
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    if (before.group_id === null) return before;
    const after = await updateBusinessRow(trx, input.id, { group_id: null, updated: ctx.deps.now() });
    await audit(trx, ctx, {
      action: 'business.unlinkGroup',
      entityType: 'business',
      entityId: input.id,
      businessId: input.id,
      details: { changed: ['groupId'], groupId: before.group_id },
    });
    return after;
  });
  return { business: toBusiness(row) };
}

export async function uploadLogo(input: In<'uploadLogo'>, ctx: AuthedContext): Promise<Out<'uploadLogo'>> {
  assertBusinessEditable(await mustFind(ctx.deps.db, input.entityId));
  const path = await storeLogo(ctx.deps, input.dataUrl);
  await audit(ctx.deps.db, ctx, {
    action: 'business.logo.upload',
    entityType: 'business',
    entityId: input.entityId,
    businessId: input.entityId,
    details: { path },
  });
  return { path };
}

/** Checks an updateLogo path: null (no logo) or a logo file that exists. */
export async function assertLogoPath(ctx: AuthedContext, path: string | null): Promise<void> {
  if (path !== null && !(await logoExists(ctx.deps, path))) {
    throw new AppError('VALIDATION', 'No uploaded logo has that path', [
      { path: 'path', id: 'NOT_FOUND', message: 'No uploaded logo has that path: upload it first' },
    ]);
  }
}

export async function updateLogo(input: In<'updateLogo'>, ctx: AuthedContext): Promise<Out<'updateLogo'>> {
  await assertLogoPath(ctx, input.path);
  const row = await ctx.deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    const after = await updateBusinessRow(trx, input.id, {
      logo_path: input.path,
      logo_background_color: input.path === null ? null : input.backgroundColor,
      updated: ctx.deps.now(),
    });
    await audit(trx, ctx, {
      action: 'business.logo.update',
      entityType: 'business',
      entityId: input.id,
      businessId: input.id,
      details: { changed: changedFields(toBusiness(before), toBusiness(after), ['logo']), path: input.path },
    });
    return after;
  });
  return { business: toBusiness(row) };
}
