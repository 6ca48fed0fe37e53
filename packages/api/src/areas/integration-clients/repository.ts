import type { IntegrationClientView, IntegrationPartner } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;
type ClientRow = Selectable<Database['integration_clients']>;
type PartnerRow = Selectable<Database['integration_partners']>;

/** An integration client as stored: its settings, its sealed webhook secrets and its hourly window. */
export type IntegrationClient = {
  id: string;
  businessId: string;
  partnerId: string | null;
  name: string;
  contactEmail: string | null;
  suppressPatientMessages: boolean;
  webhookUrl: string | null;
  rateLimit: number;
  /** The client secret's SHA-256 and its last characters (the secret itself is never kept). */
  secretHash: string | null;
  secretHint: string | null;
  webhookSecretSealed: string | null;
  periodStart: number;
  requestsMade: number;
  created: number;
  updated: number;
};

/** What staff edit of a client (the contract's names). */
export type ClientSettings = Pick<
  IntegrationClient,
  'partnerId' | 'name' | 'contactEmail' | 'suppressPatientMessages' | 'webhookUrl' | 'rateLimit'
>;

const toClient = (r: ClientRow): IntegrationClient => ({
  id: r.id,
  businessId: r.business_id,
  partnerId: r.partner_id,
  name: r.name,
  contactEmail: r.contact_email,
  suppressPatientMessages: r.suppress_patient_messages,
  webhookUrl: r.webhook_url,
  rateLimit: r.rate_limit,
  secretHash: r.secret_hash,
  secretHint: r.secret_hint,
  webhookSecretSealed: r.webhook_secret_encrypted,
  periodStart: Number(r.period_start),
  requestsMade: r.requests_made,
  created: Number(r.created),
  updated: Number(r.updated),
});

const settingsColumns = (s: ClientSettings) => ({
  partner_id: s.partnerId,
  name: s.name,
  contact_email: s.contactEmail,
  suppress_patient_messages: s.suppressPatientMessages,
  webhook_url: s.webhookUrl,
  rate_limit: s.rateLimit,
});

export async function findClientOfBusiness(db: Db, businessId: string): Promise<IntegrationClient | undefined> {
  const row = await db
    .selectFrom('integration_clients')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row && toClient(row);
}

export async function findClient(db: Db, id: string): Promise<IntegrationClient | undefined> {
  const row = await db.selectFrom('integration_clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toClient(row);
}

/** A new client of a business with its first (sealed) webhook secret and a fresh hourly window. */
export async function insertClient(
  db: Db,
  c: { id: string; businessId: string; settings: ClientSettings; webhookSecretSealed: string; now: number },
): Promise<IntegrationClient> {
  const row = await db
    .insertInto('integration_clients')
    .values({
      id: c.id,
      business_id: c.businessId,
      ...settingsColumns(c.settings),
      secret_hash: null,
      secret_hint: null,
      webhook_secret_encrypted: c.webhookSecretSealed,
      webhook_secret_previous_encrypted: null,
      webhook_secret_previous_until: null,
      webhook_failing_since: null,
      webhook_disabled_at: null,
      event_seq: 0,
      period_start: c.now,
      requests_made: 0,
      created: c.now,
      updated: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toClient(row);
}

export async function updateClientSettings(db: Db, id: string, settings: ClientSettings, now: number) {
  await db
    .updateTable('integration_clients')
    .set({ ...settingsColumns(settings), updated: now })
    .where('id', '=', id)
    .execute();
}

/** A new client secret (stored as its hash and hint). */
export async function setClientSecret(db: Db, id: string, secret: { hash: string; hint: string }, now: number) {
  await db
    .updateTable('integration_clients')
    .set({ secret_hash: secret.hash, secret_hint: secret.hint, updated: now })
    .where('id', '=', id)
    .execute();
}

/** A new webhook secret; the one it replaces keeps signing until `previousUntil` (null: there was none). */
export async function rotateWebhookSecret(
  db: Db,
  id: string,
  secrets: { sealed: string; previousSealed: string | null; previousUntil: number | null },
  now: number,
) {
  await db
    .updateTable('integration_clients')
    .set({
      webhook_secret_encrypted: secrets.sealed,
      webhook_secret_previous_encrypted: secrets.previousSealed,
      webhook_secret_previous_until: secrets.previousUntil,
      updated: now,
    })
    .where('id', '=', id)
    .execute();
}

/** The client and its undelivered webhooks (the outbox refers to it). */
export async function deleteClient(db: Db, clientId: string): Promise<void> {
  // Its tokens, idempotency keys, events, deliveries and attempts go with it (on delete cascade).
  await db.deleteFrom('integration_clients').where('id', '=', clientId).execute();
}

/** The view of a client; `webhookSecret` is given already masked (or null). */
export function toClientView(c: IntegrationClient, webhookSecret: string | null): IntegrationClientView {
  return {
    id: c.id,
    businessId: c.businessId,
    partnerId: c.partnerId,
    name: c.name,
    contactEmail: c.contactEmail ?? '',
    suppressPatientMessages: c.suppressPatientMessages,
    webhookUrl: c.webhookUrl,
    // The secret itself is not kept: its last characters behind stars, with the leading '*' SPEC §4 shows.
    secret: c.secretHint ? `********${c.secretHint}` : '',
    hasSecret: c.secretHash !== null,
    webhookSecret,
    rateLimit: { rateLimit: c.rateLimit, periodStart: c.periodStart, requestsMade: c.requestsMade },
    created: c.created,
    updated: c.updated,
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
