import type { ScopeEntity } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

/**
 * The owner of each id of an entity: the business it belongs to (a group for groups). Ids that match
 * no row are left out. One query per entity named by a method's scope.
 */
export async function ownersOf(
  db: Kysely<Database>,
  entity: ScopeEntity,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const pairs = await rowsOf(db, entity, [...new Set(ids)]);
  return new Map(pairs.map((r) => [r.id, r.owner]));
}

/** The table of each entity that belongs to a business, named by its `business_id`. */
const ownedByBusiness = {
  machine: 'machines',
  patient: 'patients',
  signUp: 'patient_sign_ups',
  integrationClient: 'integration_clients',
  order: 'orders',
  webhookDelivery: 'webhook_deliveries',
} as const;

function rowsOf(db: Kysely<Database>, entity: ScopeEntity, ids: string[]): Promise<{ id: string; owner: string }[]> {
  switch (entity) {
    case 'business':
      return db.selectFrom('businesses').select(['id', 'id as owner']).where('id', 'in', ids).execute();
    case 'group':
      return db.selectFrom('groups').select(['id', 'id as owner']).where('id', 'in', ids).execute();
    case 'testMachine':
      return db
        .selectFrom('machines')
        .select(['id', 'business_id as owner'])
        .where('id', 'in', ids)
        .where('is_test', '=', true)
        .execute();
    default:
      return db
        .selectFrom(ownedByBusiness[entity])
        .select(['id', 'business_id as owner'])
        .where('id', 'in', ids)
        .execute();
  }
}

/** The patient (and business) of each order or patient id, for a patient session's scope. */
export async function patientsOf(
  db: Kysely<Database>,
  entity: 'order' | 'patient',
  ids: readonly string[],
): Promise<Map<string, { patientId: string; businessId: string }>> {
  const unique = [...new Set(ids)];
  const rows =
    entity === 'order'
      ? await db.selectFrom('orders').select(['id', 'patient_id', 'business_id']).where('id', 'in', unique).execute()
      : await db
          .selectFrom('patients')
          .select(['id', 'id as patient_id', 'business_id'])
          .where('id', 'in', unique)
          .where('deleted_at', 'is', null)
          .execute();
  return new Map(rows.map((r) => [r.id, { patientId: r.patient_id, businessId: r.business_id }]));
}
