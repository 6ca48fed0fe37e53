import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

export async function readGlobalSettings(db: Db) {
  const row = await db.selectFrom('global_settings').selectAll().executeTakeFirst();
  return row
    ? {
        nhsPrescriptionCharge: Number(row.nhs_prescription_charge),
        inactiveAccountDays: row.inactive_account_days,
        supportSecondFactorRequired: row.support_second_factor_required,
        updated: Number(row.updated),
      }
    : undefined;
}

/** The single row (its key can only be true), inserted or replaced. */
export async function writeGlobalSettings(
  db: Db,
  values: { pence: number; inactiveAccountDays: number; supportSecondFactorRequired: boolean },
  now: number,
  userId: string,
) {
  const row = {
    nhs_prescription_charge: values.pence,
    inactive_account_days: values.inactiveAccountDays,
    support_second_factor_required: values.supportSecondFactorRequired,
    updated: now,
    updated_by: userId,
  };
  await db
    .insertInto('global_settings')
    .values({ id: true, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/**
 * Support's wording of alarm messages, by code; a machine's alarm reads the same rows
 * (areas/machines/event-repository.ts).
 */
export async function readAlarmTemplates(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('alarm_message_templates').select(['code', 'body']).execute();
  return new Map(rows.map((r) => [r.code, r.body]));
}

export async function writeAlarmTemplate(db: Db, code: string, body: string, now: number) {
  await db
    .insertInto('alarm_message_templates')
    .values({ code, body, updated: now })
    .onConflict((oc) => oc.column('code').doUpdateSet({ body, updated: now }))
    .execute();
}

export async function deleteAlarmTemplates(db: Db, codes: readonly string[]) {
  if (codes.length === 0) return;
  await db
    .deleteFrom('alarm_message_templates')
    .where('code', 'in', [...codes])
    .execute();
}
