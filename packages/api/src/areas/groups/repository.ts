import type { Address, Group } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Selectable, sql } from 'kysely';
import * as organisations from '../businesses/index.ts';

function toGroup(row: Selectable<Database['groups']>): Group {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    // Core's Group has a string email; a group may have none (the form leaves it optional).
    email: row.email ?? '',
    address: organisations.addressOf(row),
    logo: organisations.logoOf(row),
    archived: organisations.archivedOf(row),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

export type GroupQuery = organisations.ByNameQuery & {
  /** Only groups this user holds a Group role on. */
  accessibleTo?: string;
};

/** Groups in (lower(name), id) order, strictly after the cursor, `limit + 1` of them (byNameConditions). */
export async function listGroupsByName(db: organisations.Db, q: GroupQuery): Promise<organisations.ByName<Group>[]> {
  let query = db.selectFrom('groups').selectAll().select(sql<string>`lower(name)`.as('name_key'));
  for (const condition of organisations.byNameConditions('groups', q)) query = query.where(condition);
  if (q.accessibleTo !== undefined) {
    const userId = q.accessibleTo;
    query = query.where((eb) => organisations.holdsRoleOn(userId, [{ type: 'group', id: eb.ref('groups.id') }]));
  }
  const rows = await query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map((row) => ({ item: toGroup(row), key: [row.name_key, row.id] }));
}

export async function findGroup(
  db: organisations.Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<Group | undefined> {
  let q = db.selectFrom('groups').selectAll().where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toGroup(row);
}

/** What a group form sets. */
export type GroupFields = { name: string; email: string | null; address: Address; parentId: string | null };

/** A new group, not archived, without a logo. */
export async function insertGroup(db: organisations.Db, g: GroupFields & { id: string; now: number }): Promise<Group> {
  const row = await db
    .insertInto('groups')
    .values({ ...organisations.newOrganisationColumns(g), parent_id: g.parentId })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGroup(row);
}

export type GroupPatch = organisations.OrganisationPatch & { parentId?: string | null };

/** Changes a group and answers it as it now is. */
export async function patchGroup(db: organisations.Db, id: string, patch: GroupPatch): Promise<Group> {
  const { parentId, ...shared } = patch;
  const row = await db
    .updateTable('groups')
    .set({ ...organisations.organisationColumns(shared), ...(parentId !== undefined ? { parent_id: parentId } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGroup(row);
}
