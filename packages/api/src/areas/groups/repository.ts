import type { Group, GroupInfo } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Selectable, sql, type Updateable } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import type { Cursor } from '../../lists/paging.ts';
import { archivedOf, type Db } from '../businesses/index.ts';

export type GroupRow = Selectable<Database['groups']>;

export function toGroupInfo(
  row: Pick<GroupRow, 'id' | 'name' | 'archived_at' | 'archived_by_id' | 'archived_by_display'>,
): GroupInfo {
  return { id: row.id, name: row.name, archived: archivedOf(row) };
}

export function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    // Core's Group has a string email; a group may have none (the form leaves it optional).
    email: row.email ?? '',
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      line3: row.address_line3,
      postTown: row.post_town,
      postcode: row.postcode,
    },
    logo: row.logo_path ? { path: row.logo_path, backgroundColor: row.logo_background_color ?? '#ffffff' } : null,
    archived: archivedOf(row),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

export type GroupQuery = {
  archived?: 'active' | 'archived' | 'any';
  filter?: string;
  /** Only groups this user holds a Group role on. */
  accessibleTo?: string;
  after?: Cursor;
  limit: number;
};

/** Groups in (lower(name), id) order, strictly after the cursor, `limit + 1` of them (see listBusinessRows). */
export async function listGroupRows(db: Db, q: GroupQuery): Promise<{ row: GroupRow; key: Cursor }[]> {
  let query = db.selectFrom('groups').selectAll().select(sql<string>`lower(name)`.as('name_key'));
  const archived = q.archived ?? 'any';
  if (archived === 'active') query = query.where('archived_at', 'is', null);
  if (archived === 'archived') query = query.where('archived_at', 'is not', null);
  const filter = q.filter?.trim();
  if (filter) query = query.where(contains('groups', filter));
  if (q.accessibleTo !== undefined) {
    const userId = q.accessibleTo;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.id')
          .where('user_roles.user_id', '=', userId)
          .where('user_roles.resource_type', '=', 'group')
          .whereRef('user_roles.resource_id', '=', 'groups.id'),
      ),
    );
  }
  if (q.after) {
    const [name, id] = q.after as [string, string];
    query = query.where(sql<boolean>`(lower(name), id) > (${name}, ${id})`);
  }
  const rows = await query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(({ name_key, ...row }) => ({ row, key: [name_key, row.id] }));
}

export async function findGroup(db: Db, id: string, options: { lock?: boolean } = {}) {
  let q = db.selectFrom('groups').selectAll().where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertGroup(db: Db, row: GroupRow): Promise<GroupRow> {
  return db.insertInto('groups').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateGroupRow(db: Db, id: string, patch: Updateable<Database['groups']>): Promise<GroupRow> {
  return db.updateTable('groups').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
