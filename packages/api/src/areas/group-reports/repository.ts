import type { Db } from '../reports/index.ts';

/** Of these businesses, those linked to the group (archived ones too: their months still count), by id. */
export async function linkedBusinesses(
  db: Db,
  groupId: string,
  businessIds: readonly string[],
): Promise<Map<string, { name: string }>> {
  if (businessIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('businesses')
    .select(['id', 'name'])
    .where('group_id', '=', groupId)
    .where('id', 'in', businessIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.name }]));
}
