import type { RetentionCounts, RetentionPolicy } from '@medlocker/core';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from './policy-repository.ts';

/*
 * What the retention job finds and removes, one business (or, with `businessId` null, the entries of no
 * business) at a time. Each remover takes at most `limit` rows and is meant to run in its own short
 * transaction: the job loops until a batch comes back short (retention-job.ts).
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
/**
 * The youngest audit cutoff asked of the database: a year and an hour. audit_log refuses a limit under
 * a year by the database's clock (migration 0046); the hour absorbs a server clock ahead of it.
 */
const AUDIT_FLOOR = YEAR + HOUR;

/** The finished states: an order in none of them is still waiting to be loaded or inside a locker. */
export const FINISHED = ['collected', 'cancelled', 'removed'] as const;

/** The times before which each kind is past its period, under `policy` at `now`. */
export function cutoffs(policy: RetentionPolicy, now: number) {
  return {
    orders: now - policy.orderDays * DAY,
    patients: now - policy.patientYears * YEAR,
    temperature: now - policy.temperatureDays * DAY,
    audit: Math.min(now - policy.auditDays * DAY, now - AUDIT_FLOOR),
    deliveries: now - policy.deliveryDays * DAY,
  };
}
export type Cutoffs = ReturnType<typeof cutoffs>;

const businessIs = (businessId: string | null) => (businessId === null ? sql`is null` : sql`= ${businessId}`);

/** Finished orders still holding their personal fields, last changed before the cutoff, oldest first. */
export async function ordersPastTime(db: Db, businessId: string, before: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('business_id', '=', businessId)
    .where('anonymised_at', 'is', null)
    .where('status', 'in', FINISHED)
    .where('updated', '<', before)
    .orderBy('updated')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Patients not erased, added before the cutoff, with no order since it and none still waiting or in a
 * locker: "no order for N years".
 */
function inactivePatient(businessId: string, before: number): Expression<SqlBool> {
  return sql<SqlBool>`p.business_id = ${businessId} and p.erased_at is null and p.created < ${before}
    and not exists (select 1 from orders o where o.business_id = p.business_id and o.patient_id = p.id
      and (o.created >= ${before} or o.status not in ('collected', 'cancelled', 'removed')))`;
}

export async function patientsPastTime(db: Db, businessId: string, before: number, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }>`select p.id from patients p where ${inactivePatient(businessId, before)}
    order by p.created limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Deletes up to `limit` readings older than the cutoff; answers how many. */
export async function deleteReadings(db: Db, businessId: string, before: number, limit: number): Promise<number> {
  const result = await sql`delete from temperature_readings t using (
      select machine_id, created from temperature_readings where business_id = ${businessId} and created < ${before}
      limit ${limit}) old
    where t.business_id = ${businessId} and t.machine_id = old.machine_id and t.created = old.created`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Deletes up to `limit` audit entries older than the cutoff. audit_log refuses every UPDATE and DELETE
 * unless the transaction names a time before which entries may go, and that time is more than 365 days
 * old by the database's clock (migration 0046): `db` must be a transaction, so the setting ends with it.
 */
export async function deleteAuditEntries(
  db: Db,
  businessId: string | null,
  before: number,
  limit: number,
): Promise<number> {
  await sql`select set_config('medlocker.audit_purge_before', ${String(before)}, true)`.execute(db);
  const result = await sql`delete from audit_log where id in (
      select id from audit_log where business_id ${businessIs(businessId)} and at < ${before} limit ${limit})`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Deletes up to `limit` integration events older than the cutoff whose deliveries are all finished (their
 * deliveries and attempts go with them), then as many staff emails (messages to no patient) no longer
 * pending. Answers how many rows of either went.
 */
export async function deleteDeliveries(
  db: Db,
  businessId: string | null,
  before: number,
  limit: number,
): Promise<number> {
  let done = 0;
  if (businessId !== null) {
    const events = await sql`delete from integration_events where id in (
        select e.id from integration_events e where e.business_id = ${businessId} and e.created < ${before}
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
        limit ${limit})`.execute(db);
    done += Number(events.numAffectedRows ?? 0);
  }
  const messages = await sql`delete from message_outbox where id in (
      select id from message_outbox where patient_id is null and business_id ${businessIs(businessId)}
        and created < ${before} and status <> 'pending' limit ${limit})`.execute(db);
  return done + Number(messages.numAffectedRows ?? 0);
}

const count = async (db: Db, query: ReturnType<typeof sql<{ n: string | number }>>) =>
  Number((await query.execute(db)).rows[0]?.n ?? 0);

/** What a run would remove for one business under its policy (the preview): the same conditions. */
export async function countPastTime(db: Db, businessId: string, cut: Cutoffs): Promise<RetentionCounts> {
  const [orders, patients, temperatureReadings, auditEntries, events, messages] = await Promise.all([
    count(
      db,
      sql`select count(*) as n from orders where business_id = ${businessId} and anonymised_at is null
        and status in ('collected', 'cancelled', 'removed') and updated < ${cut.orders}`,
    ),
    count(db, sql`select count(*) as n from patients p where ${inactivePatient(businessId, cut.patients)}`),
    count(
      db,
      sql`select count(*) as n from temperature_readings where business_id = ${businessId} and created < ${cut.temperature}`,
    ),
    count(db, sql`select count(*) as n from audit_log where business_id = ${businessId} and at < ${cut.audit}`),
    count(
      db,
      sql`select count(*) as n from integration_events e where e.business_id = ${businessId} and e.created < ${cut.deliveries}
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')`,
    ),
    countStaffMessages(db, businessId, cut.deliveries),
  ]);
  return { orders, patients, temperatureReadings, auditEntries, deliveries: events + messages };
}

function countStaffMessages(db: Db, businessId: string | null, before: number) {
  return count(
    db,
    sql`select count(*) as n from message_outbox where patient_id is null and business_id ${businessIs(businessId)}
      and created < ${before} and status <> 'pending'`,
  );
}

/** The same for the rows of no business: audit entries and staff emails, under the product's policy. */
export async function countProductPastTime(db: Db, cut: Cutoffs): Promise<RetentionCounts> {
  const auditEntries = await count(
    db,
    sql`select count(*) as n from audit_log where business_id is null and at < ${cut.audit}`,
  );
  const deliveries = await countStaffMessages(db, null, cut.deliveries);
  return { orders: 0, patients: 0, temperatureReadings: 0, auditEntries, deliveries };
}
