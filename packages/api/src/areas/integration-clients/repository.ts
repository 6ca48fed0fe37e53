import type { IntegrationClientView, IntegrationPartner } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;
export type ClientRow = Selectable<Database['integration_clients']>;
type PartnerRow = Selectable<Database['integration_partners']>;

export const findClientOfBusiness = (db: Db, businessId: string): Promise<ClientRow | undefined> =>
  db.selectFrom('integration_clients').selectAll().where('business_id', '=', businessId).executeTakeFirst();

export const findClient = (db: Db, id: string): Promise<ClientRow | undefined> =>
  db.selectFrom('integration_clients').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertClient(db: Db, row: ClientRow): Promise<void> {
  await db.insertInto('integration_clients').values(row).execute();
}

export async function updateClient(db: Db, id: string, changes: Updateable<Database['integration_clients']>) {
  await db.updateTable('integration_clients').set(changes).where('id', '=', id).execute();
}

/** The client and its undelivered webhooks (the outbox refers to it). */
export async function deleteClient(db: Db, client: ClientRow): Promise<void> {
  // Its tokens, idempotency keys, events, deliveries and attempts go with it (on delete cascade).
  await db.deleteFrom('integration_clients').where('id', '=', client.id).execute();
}

/** The view of a client; `webhookSecret` is given already masked (or null). */
export function toClientView(row: ClientRow, webhookSecret: string | null): IntegrationClientView {
  return {
    id: row.id,
    businessId: row.business_id,
    partnerId: row.partner_id,
    name: row.name,
    contactEmail: row.contact_email ?? '',
    suppressPatientMessages: row.suppress_patient_messages,
    webhookUrl: row.webhook_url,
    // The secret itself is not kept: its last characters behind stars, with the leading '*' SPEC §4 shows.
    secret: row.secret_hint ? `********${row.secret_hint}` : '',
    hasSecret: row.secret_hash !== null,
    webhookSecret,
    rateLimit: {
      rateLimit: row.rate_limit,
      periodStart: Number(row.period_start),
      requestsMade: row.requests_made,
    },
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

const toPartner = (r: PartnerRow): IntegrationPartner => ({
  id: r.id,
  name: r.name,
  contactEmail: r.contact_email,
  suppressPatientMessages: r.suppress_patient_messages,
  created: Number(r.created),
  updated: Number(r.updated),
});

export async function listPartners(db: Db): Promise<IntegrationPartner[]> {
  const rows = await db.selectFrom('integration_partners').selectAll().orderBy('name').orderBy('id').execute();
  return rows.map(toPartner);
}

export async function findPartner(db: Db, id: string): Promise<IntegrationPartner | undefined> {
  const row = await db.selectFrom('integration_partners').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toPartner(row);
}

export async function insertPartner(db: Db, row: PartnerRow): Promise<IntegrationPartner> {
  await db.insertInto('integration_partners').values(row).execute();
  return toPartner(row);
}

export async function updatePartner(db: Db, id: string, changes: Updateable<Database['integration_partners']>) {
  await db.updateTable('integration_partners').set(changes).where('id', '=', id).execute();
}

export const clientsOfPartner = async (db: Db, partnerId: string): Promise<number> =>
  (await db.selectFrom('integration_clients').select('id').where('partner_id', '=', partnerId).execute()).length;

export async function deletePartner(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('integration_partners').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Revokes every token of a client (a new client secret was generated). */
export async function deleteTokensOfClient(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom('integration_tokens').where('client_id', '=', clientId).execute();
}
