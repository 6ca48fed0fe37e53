import type { Locale, SmsTemplateKey } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

/** A business as its settings pages and other areas' checks need it: its name and whether it is archived. */
export type SettingsBusiness = { id: string; name: string; archived: boolean };

/**
 * A business with its name and archive mark (its settings, a patient's WhatsApp code message, the public
 * sign-up page); `lock` holds it against a concurrent archive.
 */
export async function findBusiness(db: Db, id: string, lock = false): Promise<SettingsBusiness | undefined> {
  let q = db.selectFrom('businesses').select(['id', 'name', 'archived_at']).where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && { id: row.id, name: row.name, archived: row.archived_at !== null };
}

type JsonTable = 'business_feature_settings' | 'business_controlled_settings';

/** The stored jsonb of a business's feature or controlled settings (partial: defaults fill the rest). */
export async function readSettingsJson(db: Db, table: JsonTable, businessId: string) {
  const row = await db
    .selectFrom(table)
    .select(['settings', 'updated'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row ? storedSettings(row) : undefined;
}

/** A stored settings row as read: its JSON object (anything else stored reads as none) and when it changed. */
function storedSettings(row: { settings: unknown; updated: number | string | bigint }) {
  const settings = row.settings && typeof row.settings === 'object' && !Array.isArray(row.settings) ? row.settings : {};
  return { settings: settings as Record<string, unknown>, updated: Number(row.updated) };
}

/**
 * A business's feature and controlled settings rows in one round trip (read for every message sent):
 * each as {@link readSettingsJson} answers it.
 */
export async function readFeatureAndControlledJson(db: Db, businessId: string) {
  const rows = await db
    .selectFrom('business_feature_settings')
    .select([sql<string>`'feature'`.as('kind'), 'settings', 'updated'])
    .where('business_id', '=', businessId)
    .unionAll(
      db
        .selectFrom('business_controlled_settings')
        .select([sql<string>`'controlled'`.as('kind'), 'settings', 'updated'])
        .where('business_id', '=', businessId),
    )
    .execute();
  const of = (kind: string) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? storedSettings(row) : undefined;
  };
  return { feature: of('feature'), controlled: of('controlled') };
}

export async function writeSettingsJson(
  db: Db,
  table: JsonTable,
  businessId: string,
  settings: Record<string, unknown>,
  now: number,
) {
  const json = JSON.stringify(settings);
  await db
    .insertInto(table)
    .values({ business_id: businessId, settings: json, updated: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ settings: json, updated: now }))
    .execute();
}

/** A business's own SMS templates, by key. */
/** A business's own wording of its templates in one language, by key. */
export async function readSmsTemplates(db: Db, businessId: string, language: Locale): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('business_sms_templates')
    .select(['key', 'body'])
    .where('business_id', '=', businessId)
    .where('language', '=', language)
    .execute();
  return new Map(rows.map((r) => [r.key, r.body]));
}

export async function writeSmsTemplate(
  db: Db,
  businessId: string,
  key: SmsTemplateKey,
  body: string,
  now: number,
  language: Locale,
) {
  await db
    .insertInto('business_sms_templates')
    .values({ business_id: businessId, key, body, updated: now, language })
    .onConflict((oc) => oc.columns(['business_id', 'key', 'language']).doUpdateSet({ body, updated: now }))
    .execute();
}

export async function deleteSmsTemplates(
  db: Db,
  businessId: string,
  keys: readonly SmsTemplateKey[],
  language: Locale,
) {
  if (keys.length === 0) return;
  await db
    .deleteFrom('business_sms_templates')
    .where('business_id', '=', businessId)
    .where('language', '=', language)
    .where('key', 'in', [...keys])
    .execute();
}

/**
 * Orders of a business still to collect whose prescription charge is unpaid (an exemption declared on
 * an order that still owes its retail charge has waived it).
 */
export async function countLiveChargedOrders(db: Db, businessId: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('business_id', '=', businessId)
    .where('status', 'in', ['new', 'loaded'])
    .where('payment_status', '=', 'unpaid')
    .where('prescription_charge', '>', 0)
    .where('exemption_code', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
