import { sql } from 'kysely';
import type { Db } from './repository.ts';

/*
 * The monthly report email's reads and its sent log (monthly_report_sends, migration 0030). The log row
 * of a (business, month) is claimed before anything is sent and is the one place that says whether the
 * scheduled email went: see monthly-email.ts for the protocol.
 */

/** What the email needs of a business: its name, whether it is archived, and who gets the report. */
export async function findReportBusiness(db: Db, businessId: string) {
  const row = await db
    .selectFrom('businesses')
    .select(['id', 'name', 'archived_at', 'notification_emails'])
    .where('id', '=', businessId)
    .executeTakeFirst();
  return row && { id: row.id, name: row.name, archived: row.archived_at !== null, recipients: row.notification_emails };
}

/** Active businesses with at least one notification email, a page at a time in id order. */
export async function reportBusinessIds(db: Db, after: string | null, limit: number): Promise<string[]> {
  let q = db
    .selectFrom('businesses')
    .select('id')
    .where('archived_at', 'is', null)
    .where(sql<boolean>`cardinality(notification_emails) > 0`)
    .orderBy('id')
    .limit(limit);
  if (after !== null) q = q.where('id', '>', after);
  return (await q.execute()).map((r) => r.id);
}

export type SendLogRow = {
  status: 'sending' | 'sent' | 'unconfirmed';
  handedOverAt: number | null;
  crashResends: number;
  messageId: string;
};

/**
 * The log row of (business, month), inserted if missing, locked for the transaction: of two runners
 * claiming the same month at once, the second waits for the first's commit and then reads what it did.
 */
export async function claimSendLog(
  tx: Db,
  key: { businessId: string; year: number; month: number },
  messageId: string,
  now: number,
): Promise<SendLogRow> {
  await tx
    .insertInto('monthly_report_sends')
    .values({
      business_id: key.businessId,
      year: key.year,
      month: key.month,
      claimed_at: now,
      message_id: messageId,
      updated: now,
    })
    .onConflict((oc) => oc.columns(['business_id', 'year', 'month']).doNothing())
    .execute();
  const row = await tx
    .selectFrom('monthly_report_sends')
    .select(['status', 'handed_over_at', 'crash_resends', 'message_id'])
    .where('business_id', '=', key.businessId)
    .where('year', '=', key.year)
    .where('month', '=', key.month)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    status: row.status as SendLogRow['status'],
    handedOverAt: row.handed_over_at === null ? null : Number(row.handed_over_at),
    crashResends: row.crash_resends,
    messageId: row.message_id,
  };
}

type Key = { businessId: string; year: number; month: number };

const whereKey = (key: Key) => ({ business_id: key.businessId, year: key.year, month: key.month }) as const;

async function updateLog(
  tx: Db,
  key: Key,
  values: {
    status?: SendLogRow['status'];
    handed_over_at?: number | null;
    crash_resends?: number;
    sent_at?: number;
    recipients?: string[];
  },
  now: number,
  onlyHandedOverAt?: number,
): Promise<boolean> {
  const k = whereKey(key);
  let q = tx
    .updateTable('monthly_report_sends')
    .set({ ...values, updated: now })
    .where('business_id', '=', k.business_id)
    .where('year', '=', k.year)
    .where('month', '=', k.month);
  if (onlyHandedOverAt !== undefined) q = q.where('handed_over_at', '=', onlyHandedOverAt);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** The mark committed just before the SMTP conversation (and the crash resend counted, if this is one). */
export const markHandedOver = (tx: Db, key: Key, at: number, crashResends: number) =>
  updateLog(tx, key, { handed_over_at: at, crash_resends: crashResends }, at);

/** The server refused the mail: the mark goes (only this attempt's), so a retry sends without doubt. */
export const clearHandOver = (tx: Db, key: Key, markedAt: number, now: number) =>
  updateLog(tx, key, { handed_over_at: null }, now, markedAt);

export const markSent = (tx: Db, key: Key, recipients: string[], now: number) =>
  updateLog(tx, key, { status: 'sent', sent_at: now, recipients }, now);

export const markUnconfirmed = (tx: Db, key: Key, now: number) => updateLog(tx, key, { status: 'unconfirmed' }, now);

/** The log row as it is (tests, and support's questions). */
export async function readSendLog(db: Db, key: Key) {
  return db
    .selectFrom('monthly_report_sends')
    .selectAll()
    .where('business_id', '=', key.businessId)
    .where('year', '=', key.year)
    .where('month', '=', key.month)
    .executeTakeFirst();
}
