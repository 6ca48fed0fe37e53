import type { IdentityProvider } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import { type IdentityProviderRow, storedConfiguration } from '../../sso/config.ts';

type Row = IdentityProviderRow;

/** A provider as the api shows it: the configuration's client secret is left out, always. */
export function toIdentityProvider(row: Row): IdentityProvider {
  const c = storedConfiguration(row);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    created: row.created,
    updated: row.updated,
    businessId: row.business_id,
    groupId: row.group_id,
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
  return db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getIdentityProvider(db: Kysely<Database>, id: string): Promise<IdentityProvider | undefined> {
  const row = await findIdentityProviderRow(db, id);
  return row ? toIdentityProvider(row) : undefined;
}
