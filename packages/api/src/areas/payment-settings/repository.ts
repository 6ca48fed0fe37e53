import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

/** The provider column is not null: a business without a card provider stores this. */
const NO_PROVIDER = 'none';

/**
 * A business's payment settings as stored: the Judopay token and secret still sealed (null when none
 * is stored). The card switches and sandbox flag are kept whatever the provider.
 */
export type StoredPaymentSettings = {
  businessId: string;
  contactNumber: string;
  legalInfo: string;
  provider: 'judo' | null;
  judoId: string | null;
  sandbox: boolean;
  sealedToken: string | null;
  sealedSecret: string | null;
  showVisa: boolean;
  showAmex: boolean;
  showMastercard: boolean;
};

function toStored(row: Selectable<Database['payment_settings']>): StoredPaymentSettings {
  return {
    businessId: row.business_id,
    contactNumber: row.contact_number,
    legalInfo: row.legal_info,
    provider: row.provider === 'judo' ? 'judo' : null,
    judoId: row.judo_id,
    sandbox: row.judo_sandbox,
    sealedToken: row.judo_token_encrypted,
    sealedSecret: row.judo_secret_encrypted,
    showVisa: row.judo_show_visa,
    showAmex: row.judo_show_amex,
    showMastercard: row.judo_show_mastercard,
  };
}

export async function findPaymentSettings(db: Db, businessId: string): Promise<StoredPaymentSettings | undefined> {
  const row = await db
    .selectFrom('payment_settings')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row && toStored(row);
}

/** Stores a business's payment settings, replacing what it had (its first `created` kept). */
export async function upsertPaymentSettings(db: Db, s: StoredPaymentSettings, now: number): Promise<void> {
  const changes = {
    contact_number: s.contactNumber,
    legal_info: s.legalInfo,
    provider: s.provider ?? NO_PROVIDER,
    judo_id: s.judoId,
    judo_sandbox: s.sandbox,
    judo_token_encrypted: s.sealedToken,
    judo_secret_encrypted: s.sealedSecret,
    judo_show_visa: s.showVisa,
    judo_show_amex: s.showAmex,
    judo_show_mastercard: s.showMastercard,
    updated: now,
  };
  await db
    .insertInto('payment_settings')
    .values({ business_id: s.businessId, ...changes, created: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet(changes))
    .execute();
}

export async function deletePaymentSettingsRow(db: Db, businessId: string): Promise<boolean> {
  const result = await db.deleteFrom('payment_settings').where('business_id', '=', businessId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Live businesses with a live machine taking payments and no payment settings yet, with their names. */
export async function businessesTakingPaymentsWithoutSettings(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('businesses as b')
    .select(['b.id', 'b.name'])
    .where('b.archived_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('machines as m')
          .select('m.id')
          .whereRef('m.business_id', '=', 'b.id')
          .where('m.payments_enabled', '=', true)
          .where('m.archived_at', 'is', null),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('payment_settings as p').select('p.business_id').whereRef('p.business_id', '=', 'b.id'),
        ),
      ),
    )
    .orderBy('b.name')
    .execute();
}
