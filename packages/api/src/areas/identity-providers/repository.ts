import type { IdentityProvider } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable } from 'kysely';

type Row = Selectable<Database['identity_providers']>;

/** A provider as the api shows it: the configuration's client secret is left out, always. */
export function toIdentityProvider(row: Row): IdentityProvider {
  const configuration = (row.configuration ?? {}) as { clientId?: unknown; issuerUrl?: unknown };
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    created: row.created,
    updated: row.updated,
    configuration: {
      clientId: typeof configuration.clientId === 'string' ? configuration.clientId : '',
      issuerUrl: typeof configuration.issuerUrl === 'string' ? configuration.issuerUrl : '',
    },
  };
}

export async function listIdentityProviders(db: Kysely<Database>): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('identity_providers').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

export async function getIdentityProvider(db: Kysely<Database>, id: string): Promise<IdentityProvider | undefined> {
  const row = await db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toIdentityProvider(row) : undefined;
}
