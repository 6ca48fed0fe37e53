import type { IdentityProvider } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import { type ProviderRecord, storedConfiguration, toProviderRecord } from '../sso/index.ts';

type Row = ProviderRecord;

/** A provider as the api shows it: the configuration's client secret is left out, always. */
export function toIdentityProvider(row: Row): IdentityProvider {
  const c = storedConfiguration(row);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    created: row.created,
    updated: row.updated,
    businessId: row.businessId,
    groupId: row.groupId,
    configuration: {
      clientId: c.clientId,
      issuerUrl: c.issuerUrl,
      scopes: c.scopes,
      clientSecretSet: c.clientSecretSealed !== '' || c.legacyClientSecret !== '',
      metadataUrl: c.metadataUrl,
      metadataXml: c.metadataXml,
      entityId: c.entityId,
      ssoUrl: c.ssoUrl,
      certificate: c.certificate,
      claims: c.claims,
    },
  };
}

export async function listIdentityProviders(db: Kysely<Database>) {
  return db
    .selectFrom('identity_providers')
    .select(['id', 'name', 'type', 'business_id as businessId', 'group_id as groupId'])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function findIdentityProviderRow(db: Kysely<Database>, id: string): Promise<Row | undefined> {
  const row = await db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toProviderRecord(row);
}

export async function getIdentityProvider(db: Kysely<Database>, id: string): Promise<IdentityProvider | undefined> {
  const row = await findIdentityProviderRow(db, id);
  return row ? toIdentityProvider(row) : undefined;
}

export async function businessExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom('businesses').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function groupExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom('groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export type ProviderValues = {
  name: string;
  businessId: string | null;
  groupId: string | null;
  configuration: string;
};

export async function insertIdentityProvider(
  db: Kysely<Database>,
  id: string,
  type: 'OIDC' | 'SAML',
  values: ProviderValues,
  now: number,
): Promise<Row> {
  const row = await db
    .insertInto('identity_providers')
    .values({
      id,
      name: values.name,
      type,
      business_id: values.businessId,
      group_id: values.groupId,
      configuration: values.configuration,
      created: now,
      updated: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toProviderRecord(row);
}

export async function updateIdentityProvider(
  db: Kysely<Database>,
  id: string,
  values: ProviderValues,
  updated: number,
): Promise<Row> {
  const row = await db
    .updateTable('identity_providers')
    .set({
      name: values.name,
      business_id: values.businessId,
      group_id: values.groupId,
      configuration: values.configuration,
      updated,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toProviderRecord(row);
}

export async function deleteIdentityProvider(db: Kysely<Database>, id: string) {
  return db.deleteFrom('identity_providers').where('id', '=', id).returning(['id', 'name']).executeTakeFirst();
}
