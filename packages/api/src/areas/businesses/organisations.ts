import { AppError, type ArchivedStamp, infoPageSize, type Logo } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { type Cursor, decodeCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import { changedFields } from './changes.ts';
import { logoExists, storeLogo } from './logos.ts';
import type { ByName, Db, OrganisationPatch } from './organisation-repository.ts';

/*
 * The rules businesses and groups share (SPEC §4): an archived one cannot be edited; archiving records
 * who and when, and tells the consoles watching it; a logo is uploaded, then set or cleared. Each
 * service gives its kind (what it is called, and its repository's find and patch) and keeps only
 * what is its own: a business's group, a group's parent.
 */

/** What the shared rules need of a business or a group. */
export type Organisation = { id: string; name: string; archived: ArchivedStamp | null; logo: Logo | null };

/** One kind of organisation: its name in audit entries and messages, and its repository. */
export type OrganisationKind<T extends Organisation, P extends OrganisationPatch = OrganisationPatch> = {
  entity: 'business' | 'group';
  find(db: Db, id: string, options?: { lock?: boolean }): Promise<T | undefined>;
  patch(db: Db, id: string, patch: Omit<P, 'updated'> & { updated: number }): Promise<T>;
};

type Kind<T extends Organisation> = OrganisationKind<T, OrganisationPatch>;

/** A business's audit entries carry its id as their business; a group's carry none. */
const auditedBusiness = (kind: { entity: string }, id: string) => (kind.entity === 'business' ? id : null);

export async function mustFind<T extends Organisation>(
  kind: Pick<Kind<T>, 'entity' | 'find'>,
  db: Db,
  id: string,
  lock = false,
): Promise<T> {
  const found = await kind.find(db, id, { lock });
  if (!found) throw new AppError('NOT_FOUND', `No ${kind.entity} with id ${id}`);
  return found;
}

/** SPEC §4: an archived business or group cannot be edited (409, with a message the console shows as is). */
export function assertEditable(kind: { entity: string }, found: Organisation): void {
  if (found.archived !== null) {
    throw new AppError('CONFLICT', `The ${kind.entity} ${found.name} is archived: unarchive it before changing it`);
  }
}

/** A page of a list by name: `list` fetches up to `limit + 1` from the cursor on. */
export async function pageByName<T>(
  input: { nextToken?: string | null },
  list: (q: { after?: Cursor; limit: number }) => Promise<ByName<T>[]>,
): Promise<{ items: T[]; nextToken: string | null }> {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await list({ ...(after ? { after } : {}), limit: infoPageSize });
  const page = pageOf(rows, infoPageSize, (r) => r.key);
  return { items: page.items.map((r) => r.item), nextToken: page.nextToken };
}

/** A name filter as typed: none when blank. */
export const filterOf = (text: string | undefined) => (text?.trim() ? { filter: text } : {});

/** Declared `scope: 'filtered'`: support staff see every one, a pharmacy user those their roles reach. */
export const reachOf = (actor: StaffActor) => (actor.kind === 'support' ? {} : { accessibleTo: actor.userId });

/**
 * A list method: the page of `list` that `where` picks for the input and the caller, answered under
 * `key` (each item as `as` gives it) with the next page's token.
 */
export function listMethod<Q, T, I extends { nextToken?: string | null }, K extends string, R = T>(
  list: (db: Db, q: Q) => Promise<ByName<T>[]>,
  key: K,
  where: (input: I, actor: StaffActor) => Omit<NoInfer<Q>, 'after' | 'limit'>,
  as: (item: T) => R = (item) => item as unknown as R,
) {
  return async (deps: AppDeps, actor: StaffActor, input: I) => {
    const page = await pageByName(input, (at) => list(deps.db, { ...where(input, actor), ...at } as Q));
    return { [key]: page.items.map(as), nextToken: page.nextToken } as { [P in K]: R[] } & { nextToken: string | null };
  };
}

/**
 * Adds a business or group in one transaction with its `<entity>.create` audit entry; `insert` may
 * check first (a group's parent).
 */
export async function createOrganisation<T extends Organisation>(
  kind: { entity: 'business' | 'group' },
  deps: AppDeps,
  actor: StaffActor,
  insert: (trx: Db) => Promise<T>,
  fields: readonly string[],
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const created = await insert(trx);
    await audit(trx, deps, actor, {
      action: `${kind.entity}.create`,
      entityType: kind.entity,
      entityId: created.id,
      businessId: auditedBusiness(kind, created.id),
      details: { changed: [...fields] },
    });
    return created;
  });
}

/**
 * Changes a business or group that is not archived, auditing the names of the `fields` that changed;
 * `check` runs on the locked one before the change (a group's parent).
 */
export async function updateOrganisation<T extends Organisation, P extends OrganisationPatch>(
  kind: OrganisationKind<T, P>,
  deps: AppDeps,
  actor: StaffActor,
  id: string,
  change: { patch: Omit<P, 'updated'>; fields: readonly (keyof T & string)[]; check?: (trx: Db) => Promise<void> },
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(kind, trx, id, true);
    assertEditable(kind, before);
    await change.check?.(trx);
    const after = await kind.patch(trx, id, { ...change.patch, updated: deps.now() });
    await audit(trx, deps, actor, {
      action: `${kind.entity}.update`,
      entityType: kind.entity,
      entityId: id,
      businessId: auditedBusiness(kind, id),
      details: { changed: changedFields(before, after, [...change.fields]) },
    });
    return after;
  });
}

/**
 * Archives or unarchives, recording who and when; doing it twice is harmless (no second audit entry
 * or push), so a bulk run from the cli can be repeated after a partial failure. Consoles watching the
 * business, or the group, hear of it.
 */
export async function setArchived<T extends Organisation>(
  kind: Kind<T>,
  deps: AppDeps,
  actor: StaffActor,
  id: string,
  archive: boolean,
): Promise<T> {
  const { found, changed } = await deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(kind, trx, id, true);
    if ((before.archived !== null) === archive) return { found: before, changed: false };
    const now = deps.now();
    const found = await kind.patch(trx, id, {
      archived: archive ? { at: now, userId: actor.userId, userDisplayName: actor.displayName } : null,
      updated: now,
    });
    await audit(trx, deps, actor, {
      action: `${kind.entity}.${archive ? 'archive' : 'unarchive'}`,
      entityType: kind.entity,
      entityId: id,
      businessId: auditedBusiness(kind, id),
      details: { changed: ['archived'] },
    });
    return { found, changed: true };
  });
  if (changed) {
    const action = archive ? 'archived' : 'unarchived';
    liveOf(deps).publish(
      kind.entity === 'business'
        ? { businessId: id, message: { action, params: { businessId: id, archived: found.archived } } }
        : { businessId: '', groupId: id, message: { action, params: { groupId: id, archived: found.archived } } },
    );
  }
  return found;
}

/** Stores an uploaded logo for a business or group that is not archived; answers its path. */
export async function uploadLogoFor<T extends Organisation>(
  kind: Kind<T>,
  deps: AppDeps,
  actor: StaffActor,
  input: { entityId: string; dataUrl: string },
): Promise<{ path: string }> {
  assertEditable(kind, await mustFind(kind, deps.db, input.entityId));
  const path = await storeLogo(deps, input.dataUrl);
  await audit(deps.db, deps, actor, {
    action: `${kind.entity}.logo.upload`,
    entityType: kind.entity,
    entityId: input.entityId,
    businessId: auditedBusiness(kind, input.entityId),
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

/** Shows an uploaded logo on a business or group, with its background colour, or clears it (null). */
export async function updateLogoFor<T extends Organisation>(
  kind: Kind<T>,
  deps: AppDeps,
  actor: StaffActor,
  input: { id: string; path: string | null; backgroundColor: string },
): Promise<T> {
  await assertLogoPath(deps, input.path);
  return deps.db.transaction().execute(async (trx) => {
    const before = await mustFind(kind, trx, input.id, true);
    assertEditable(kind, before);
    const after = await kind.patch(trx, input.id, {
      logo: input.path === null ? null : { path: input.path, backgroundColor: input.backgroundColor },
      updated: deps.now(),
    });
    await audit(trx, deps, actor, {
      action: `${kind.entity}.logo.update`,
      entityType: kind.entity,
      entityId: input.id,
      businessId: auditedBusiness(kind, input.id),
      details: { changed: changedFields(before, after, ['logo']), path: input.path },
    });
    return after;
  });
}

/**
 * The methods a business and a group answer alike (get, archive, unarchive, uploadLogo, updateLogo),
 * each answering the one it changed wrapped as the contract names it (`{ business }`, `{ group }`).
 */
export function organisationMethods<T extends Organisation, O>(kind: Kind<T>, answer: (found: T) => O) {
  return {
    get: async (deps: AppDeps, _actor: StaffActor, input: { id: string }) =>
      answer(await mustFind(kind, deps.db, input.id)),
    archive: async (deps: AppDeps, actor: StaffActor, input: { id: string }) =>
      answer(await setArchived(kind, deps, actor, input.id, true)),
    unarchive: async (deps: AppDeps, actor: StaffActor, input: { id: string }) =>
      answer(await setArchived(kind, deps, actor, input.id, false)),
    uploadLogo: (deps: AppDeps, actor: StaffActor, input: { entityId: string; dataUrl: string }) =>
      uploadLogoFor(kind, deps, actor, input),
    updateLogo: async (
      deps: AppDeps,
      actor: StaffActor,
      input: { id: string; path: string | null; backgroundColor: string },
    ) => answer(await updateLogoFor(kind, deps, actor, input)),
  };
}
