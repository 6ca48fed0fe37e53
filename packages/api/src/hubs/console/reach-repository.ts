import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** What a pharmacy user's roles reach: businesses named by Business roles or in a group named by a Group role. */
export type ConsoleReach = { businesses: Set<string>; groups: Set<string> };

/** The businesses and groups a user's Business and Group roles reach (SPEC §6). */
export async function reachOfUser(db: Db, userId: string): Promise<ConsoleReach> {
  const roles = await db
    .selectFrom('user_roles')
    .select(['resource_type', 'resource_id'])
    .where('user_id', '=', userId)
    .where('resource_id', 'is not', null)
    .where('resource_type', 'in', ['business', 'group'])
    .execute();
  const businesses = new Set<string>();
  const groups = new Set<string>();
  for (const r of roles) {
    if (r.resource_id === null) continue;
    (r.resource_type === 'group' ? groups : businesses).add(r.resource_id);
  }
  if (groups.size > 0) {
    const members = await db
      .selectFrom('businesses')
      .select('id')
      .where('group_id', 'in', [...groups])
      .execute();
    for (const b of members) businesses.add(b.id);
  }
  return { businesses, groups };
}
