import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The monthly report email's sent log: one row per business and London month the scheduled
 * send has claimed, so the email goes once however many api processes run the job and however often a
 * job is retried after a crash. The row is claimed (inserted) before anything is sent; `handed_over_at`
 * is committed just before the SMTP conversation and cleared when the server refuses the mail, so a
 * retry that finds it set knows a crash happened while (or just after) the server took the mail.
 * - `status`: sending (claimed, not known sent), sent, or unconfirmed (a crash during the SMTP hand-over
 *   twice: never a third copy).
 * - `crash_resends`: how often a retry found the hand-over mark and sent again (at most 1).
 * - `recipients`: who it went to (the business's notification emails at the time).
 * - `message_id`: the Message-ID every copy carries, the same for a resend after a crash.
 * Manual sends (reports/sendMonthlyEmail) are not in this table: they are always allowed, and audited.
 */

const UP = [
  `create table monthly_report_sends (
    business_id text not null references businesses (id) on delete cascade,
    year integer not null check (year between 2000 and 9999),
    month integer not null check (month between 1 and 12),
    status text not null default 'sending' check (status in ('sending', 'sent', 'unconfirmed')),
    claimed_at bigint not null,
    handed_over_at bigint,
    crash_resends integer not null default 0,
    sent_at bigint,
    recipients text[] not null default '{}',
    message_id text not null,
    updated bigint not null,
    primary key (business_id, year, month)
  )`,
];

const DOWN = ['drop table monthly_report_sends'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
