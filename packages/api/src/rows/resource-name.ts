import { type RawBuilder, sql } from 'kysely';

/**
 * The name of the business or group a role, or an invitation to one, is on (its `resource_type` says
 * which table `resource_id` names); null for a role on nothing, or on one that cannot be found.
 */
export const resourceName = (table: 'user_roles' | 'role_invitations'): RawBuilder<string | null> => {
  const id = sql.ref(`${table}.resource_id`);
  const type = sql.ref(`${table}.resource_type`);
  return sql<string | null>`coalesce(
    (select businesses.name from businesses where businesses.id = ${id} and ${type} = 'business'),
    (select groups.name from groups where groups.id = ${id} and ${type} = 'group')
  )`;
};
