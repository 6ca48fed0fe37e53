import { AppError, type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import { changedFields } from './changes.ts';
import { logoExists, storeLogo } from './logos.ts';
import {
  type BusinessQuery,
  type BusinessRow,
  type Db,
  findBusiness,
  findGroupToLink,
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

const isSupport = (actor: StaffActor) => actor.kind === 'support';

async function page(
  deps: AppDeps,
  _actor: StaffActor,
  input: { nextToken?: string | null },
  q: Omit<BusinessQuery, 'limit'>,
) {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listBusinessRows(deps.db, { ...q, ...(after ? { after } : {}), limit: infoPageSize });
  return pageOf(rows, infoPageSize, (r) => r.key);
}

const filterOf = (text: string | undefined) => (text?.trim() ? { filter: text } : {});

export async function listBusinesses(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listBusinesses'>,
): Promise<Out<'listBusinesses'>> {
  const p = await page(deps, actor, input, {
    archived: input.archived ? 'archived' : 'active',
    ...filterOf(input.filterText),
    // Declared `scope: 'filtered'`: a pharmacy user sees the businesses their roles reach.
    ...(isSupport(actor) ? {} : { accessibleTo: actor.userId }),
  });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listBusinessesInfo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listBusinessesInfo'>,
): Promise<Out<'listBusinessesInfo'>> {
  // The Add-role picker shows archived businesses too, marked (the role's resource cell needs them).
  const p = await page(deps, actor, input, { archived: 'any', ...filterOf(input.filter) });
  return { data: p.items.map((r) => toBusinessInfo(r.row)), nextToken: p.nextToken };
}

export async function listGroupedBusinesses(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listGroupedBusinesses'>,
): Promise<Out<'listGroupedBusinesses'>> {
  if (!(await findGroupToLink(deps.db, input.groupId)))
    throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
  const p = await page(deps, actor, input, {
    groupId: input.groupId,
    archived: input.archived ? 'any' : 'active',
    ...filterOf(input.filterText),
  });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listUngroupedBusinesses(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listUngroupedBusinesses'>,
): Promise<Out<'listUngroupedBusinesses'>> {
  const p = await page(deps, actor, input, { groupId: null, archived: 'active', ...filterOf(input.filterText) });
  return { businesses: p.items.map((r) => toBusiness(r.row)), nextToken: p.nextToken };
}

export async function listAccessibleBusinesses(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listAccessibleBusinesses'>,
): Promise<Out<'listAccessibleBusinesses'>> {
  const p = await page(deps, actor, input, {
    archived: 'active',
    ...filterOf(input.filterText),
    ...(isSupport(actor) ? {} : { accessibleTo: actor.userId }),
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

export async function getBusiness(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'getBusiness'>,
): Promise<Out<'getBusiness'>> {
  return { business: toBusiness(await mustFind(deps.db, input.id)) };
}

export async function getBusinessInfo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'getBusinessInfo'>,
): Promise<Out<'getBusinessInfo'>> {
  const row = await mustFind(deps.db, input.id);
  if (!isSupport(actor) && !(await hasRoleOn(deps.db, actor.userId, row))) {
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

export async function createBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'createBusiness'>,
): Promise<Out<'createBusiness'>> {
  const now = deps.now();
  const row = await deps.db.transaction().execute(async (trx) => {
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
    await audit(trx, deps, actor, {
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

export async function updateBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateBusiness'>,
): Promise<Out<'updateBusiness'>> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    const after = await updateBusinessRow(trx, input.id, { ...formFields(input), updated: deps.now() });
    const changed = changedFields(toBusiness(before), toBusiness(after), [...editableFields]);
    await audit(trx, deps, actor, {
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
async function setArchived(id: string, archive: boolean, deps: AppDeps, actor: StaffActor): Promise<BusinessRow> {
  const { row, changed } = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, id, true);
    if ((before.archived_at !== null) === archive) return { row: before, changed: false };
    const now = deps.now();
    const row = await updateBusinessRow(trx, id, {
      archived_at: archive ? now : null,
      archived_by_id: archive ? actor.userId : null,
      archived_by_display: archive ? actor.displayName : null,
      updated: now,
    });
    await audit(trx, deps, actor, {
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
    liveOf(deps).publish({
      businessId: id,
      message: { action: archive ? 'archived' : 'unarchived', params: { businessId: id, archived: business.archived } },
    });
  }
  return row;
}

export async function archiveBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'archiveBusiness'>,
): Promise<Out<'archiveBusiness'>> {
  return { business: toBusiness(await setArchived(input.id, true, deps, actor)) };
}

export async function unarchiveBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'unarchiveBusiness'>,
): Promise<Out<'unarchiveBusiness'>> {
  return { business: toBusiness(await setArchived(input.id, false, deps, actor)) };
}

export async function linkGroup(deps: AppDeps, actor: StaffActor, input: In<'linkGroup'>): Promise<Out<'linkGroup'>> {
  const ids = [...new Set(input.businessIds)];
  const linked = await deps.db.transaction().execute(async (trx) => {
    const group = await findGroupToLink(trx, input.groupId, { lock: true });
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
    const now = deps.now();
    const linked: string[] = [];
    for (const row of rows) {
      if (row.group_id === group.id) continue;
      await updateBusinessRow(trx, row.id, { group_id: group.id, updated: now });
      await audit(trx, deps, actor, {
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

export async function unlinkGroup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'unlinkGroup'>,
): Promise<Out<'unlinkGroup'>> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    if (before.group_id === null) return before;
    const after = await updateBusinessRow(trx, input.id, { group_id: null, updated: deps.now() });
    await audit(trx, deps, actor, {
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

export async function uploadLogo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'uploadLogo'>,
): Promise<Out<'uploadLogo'>> {
  assertBusinessEditable(await mustFind(deps.db, input.entityId));
  const path = await storeLogo(deps, input.dataUrl);
  await audit(deps.db, deps, actor, {
    action: 'business.logo.upload',
    entityType: 'business',
    entityId: input.entityId,
    businessId: input.entityId,
    details: { path },
  });
  return { path };
}

/** Checks an updateLogo path: null (no logo) or a logo file that exists. */
export async function assertLogoPath(deps: AppDeps, path: string | null): Promise<void> {
  if (path !== null && !(await logoExists(deps, path))) {
    throw new AppError('VALIDATION', 'No uploaded logo has that path', [
      { path: 'path', id: 'NOT_FOUND', message: 'No uploaded logo has that path: upload it first' },
    ]);
  }
}

export async function updateLogo(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateLogo'>,
): Promise<Out<'updateLogo'>> {
  await assertLogoPath(deps, input.path);
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, input.id, true);
    assertBusinessEditable(before);
    const after = await updateBusinessRow(trx, input.id, {
      logo_path: input.path,
      logo_background_color: input.path === null ? null : input.backgroundColor,
      updated: deps.now(),
    });
    await audit(trx, deps, actor, {
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
