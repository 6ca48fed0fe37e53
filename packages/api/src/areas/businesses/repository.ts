import type { BusinessInfo } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable } from 'kysely';
import type { Cursor } from '../../rpc/paging.ts';

type Row = Selectable<Database['businesses']>;

export function toBusinessInfo(row: Row): BusinessInfo {
  return {
    id: row.id,
    name: row.name,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      line3: row.address_line3,
      postTown: row.post_town,
      postcode: row.postcode,
    },
    archived:
      row.archived_at === null
        ? null
        : { at: row.archived_at, userId: row.archived_by_id, userDisplayName: row.archived_by_display },
  };
}

const likePrefix = (text: string): string => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Businesses by (lower(name), id), strictly after the cursor, `limit + 1` of them. */
export async function listBusinessesInfo(
  db: Kysely<Database>,
  q: { filter?: string; after?: Cursor; limit: number },
): Promise<{ row: Row; key: Cursor }[]> {
  let query = db
    .selectFrom('businesses')
    .selectAll()
    .select((eb) => eb.fn<string>('lower', ['name']).as('name_key'));
  const filter = q.filter?.trim();
  if (filter) query = query.where((eb) => eb(eb.fn('lower', ['name']), 'like', likePrefix(filter)));
  if (q.after) {
    const [name, id] = q.after as [string, string];
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['name']), '>', name),
        eb.and([eb(eb.fn('lower', ['name']), '=', name), eb('id', '>', id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(({ name_key, ...row }) => ({ row, key: [name_key, row.id] }));
}
