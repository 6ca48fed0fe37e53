import { type Alarm, type AlarmReason, type AlarmResolution, type Level, machineAlerts } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Selectable } from 'kysely';
import type { Db } from './repository.ts';

/* Critical alarms (migration 0051): their rows, and who hears of an escalation. */

type Row = Selectable<Database['alarms']> & { machine_name: string; business_name: string; is_test: boolean };

function toAlarm(r: Row): Alarm {
  const name = (machineAlerts as Record<string, { name: string }>)[r.code]?.name ?? r.code;
  return {
    id: r.id,
    businessId: r.business_id,
    machineId: r.machine_id,
    machineName: r.machine_name,
    businessName: r.business_name,
    code: r.code,
    name,
    level: r.level as Level,
    raisedAt: Number(r.raised_at),
    repeats: r.repeats,
    state: r.state as Alarm['state'],
    acknowledged:
      r.acknowledged_at === null
        ? null
        : {
            at: Number(r.acknowledged_at),
            by: { userId: r.acknowledged_by_id, displayName: r.acknowledged_by_display ?? '' },
            reason: r.ack_reason as AlarmReason,
            note: r.ack_note ?? '',
          },
    resolved:
      r.resolved_at === null
        ? null
        : {
            at: Number(r.resolved_at),
            by:
              r.resolved_by_display === null ? null : { userId: r.resolved_by_id, displayName: r.resolved_by_display },
            how: r.resolved_how === 'person' ? 'person' : 'locker',
            note: r.resolve_note ?? '',
          },
    escalationLevel: r.escalation_level,
    nextEscalationAt: r.next_escalation_at === null ? null : Number(r.next_escalation_at),
    test: r.is_test,
  };
}

const selectAlarms = (db: Db) =>
  db
    .selectFrom('alarms as a')
    .innerJoin('machines as m', 'm.id', 'a.machine_id')
    .innerJoin('businesses as b', 'b.id', 'a.business_id')
    .selectAll('a')
    .select(['m.name as machine_name', 'b.name as business_name', 'm.is_test']);

/** One alarm with its machine's and business's names; `lock` holds the row for the caller's transaction. */
export async function findAlarm(db: Db, id: string, lock = false): Promise<Alarm | undefined> {
  if (lock) await db.selectFrom('alarms').select('id').where('id', '=', id).forUpdate().execute();
  const row = await selectAlarms(db).where('a.id', '=', id).executeTakeFirst();
  return row ? toAlarm(row) : undefined;
}

/**
 * Alarms newest first: of one machine, or of some businesses ('all' for support); unresolved only
 * unless `resolved`. QA test machines' alarms show on their machine page only.
 */
export async function listAlarmRows(
  db: Db,
  q: { businesses: 'all' | string[]; machineId?: string; resolved: boolean; limit: number },
): Promise<Alarm[]> {
  if (q.businesses !== 'all' && q.businesses.length === 0) return [];
  let query = selectAlarms(db);
  if (q.businesses !== 'all') query = query.where('a.business_id', 'in', q.businesses);
  if (q.machineId) query = query.where('a.machine_id', '=', q.machineId);
  else query = query.where('m.is_test', '=', false);
  if (!q.resolved) query = query.where('a.state', '<>', 'resolved');
  const rows = await query.orderBy('a.raised_at', 'desc').orderBy('a.id', 'desc').limit(q.limit).execute();
  return rows.map(toAlarm);
}

/**
 * Opens an alarm, or counts a repeat of the unresolved one of the same machine and code (one at most,
 * `alarms_unresolved_key`). Answers the alarm's id and whether it is new.
 */
export async function openAlarmRow(
  db: Db,
  a: {
    businessId: string;
    machineId: string;
    code: string;
    level: Level;
    eventId: string;
    raisedAt: number;
    nextEscalationAt: number | null;
  },
  now: number,
): Promise<{ id: string; opened: boolean }> {
  const inserted = await db
    .insertInto('alarms')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: a.businessId,
      machine_id: a.machineId,
      code: a.code,
      level: a.level,
      event_id: a.eventId,
      raised_at: a.raisedAt,
      next_escalation_at: a.nextEscalationAt,
      created: now,
      updated: now,
    })
    .onConflict((oc) => oc.columns(['machine_id', 'code']).where('state', '<>', 'resolved').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, opened: true };
  const repeated = await db
    .updateTable('alarms')
    .set((eb) => ({ repeats: eb('repeats', '+', 1), updated: now }))
    .where('machine_id', '=', a.machineId)
    .where('code', '=', a.code)
    .where('state', '<>', 'resolved')
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: repeated.id, opened: false };
}

export async function acknowledgeAlarmRow(
  db: Db,
  id: string,
  ack: { at: number; userId: string; display: string; reason: AlarmReason; note: string },
) {
  await db
    .updateTable('alarms')
    .set({
      state: 'acknowledged',
      acknowledged_at: ack.at,
      acknowledged_by_id: ack.userId,
      acknowledged_by_display: ack.display,
      ack_reason: ack.reason,
      ack_note: ack.note,
      next_escalation_at: null,
      updated: ack.at,
    })
    .where('id', '=', id)
    .execute();
}

export async function resolveAlarmRow(
  db: Db,
  id: string,
  r: { at: number; how: 'locker' | 'person'; userId: string | null; display: string | null; note: string },
) {
  await db
    .updateTable('alarms')
    .set({
      state: 'resolved',
      resolved_at: r.at,
      resolved_how: r.how,
      resolved_by_id: r.userId,
      resolved_by_display: r.display,
      resolve_note: r.note,
      next_escalation_at: null,
      updated: r.at,
    })
    .where('id', '=', id)
    .execute();
}

/** The ids of the unresolved alarms of a code on these machines (to resolve them, by the locker). */
export async function unresolvedAlarmIds(db: Db, machineIds: string[], code: string): Promise<string[]> {
  if (machineIds.length === 0) return [];
  const rows = await db
    .selectFrom('alarms')
    .select('id')
    .where('machine_id', 'in', machineIds)
    .where('code', '=', code)
    .where('state', '<>', 'resolved')
    .execute();
  return rows.map((r) => r.id);
}

/** The last resolution of each machine's alarm codes since `since` (the dashboard drops what they ended). */
export async function lastResolutions(db: Db, machineIds: string[], since: number): Promise<AlarmResolution[]> {
  if (machineIds.length === 0) return [];
  const rows = await db
    .selectFrom('alarms')
    .select(['machine_id', 'code', (eb) => eb.fn.max('resolved_at').as('resolved_at')])
    .where('machine_id', 'in', machineIds)
    .where('state', '=', 'resolved')
    .where('resolved_at', '>=', since)
    .groupBy(['machine_id', 'code'])
    .execute();
  return rows.map((r) => ({ machineId: r.machine_id, code: r.code, resolvedAt: Number(r.resolved_at) }));
}

export async function setEscalation(db: Db, id: string, level: number, next: number | null, now: number) {
  await db
    .updateTable('alarms')
    .set({ escalation_level: level, next_escalation_at: next, updated: now })
    .where('id', '=', id)
    .execute();
}

/** A business's minutes between escalation steps (feature settings), when it set them. */
export async function escalationMinutesOf(db: Db, businessId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('business_feature_settings')
    .select('settings')
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  const minutes = (row?.settings as { alarmEscalationMinutes?: unknown } | undefined)?.alarmEscalationMinutes;
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes > 0 ? minutes : undefined;
}

/**
 * Who hears of an escalation. Level 1, the group's contacts: the email of the business's group (SPEC
 * §3's group contact) and the keyholders' mobiles and notification emails of the business, told again
 * that nobody holds it. Level 2, support: every enabled user holding the Support role, by email.
 */
export async function escalationRecipients(
  db: Db,
  businessId: string,
  level: number,
): Promise<{ mobiles: string[]; emails: string[] }> {
  if (level >= 2) {
    const rows = await db
      .selectFrom('users as u')
      .innerJoin('user_roles as r', 'r.user_id', 'u.id')
      .select('u.email')
      .distinct()
      .where('r.name', '=', 'Support')
      .where('u.disabled_at', 'is', null)
      .orderBy('u.email')
      .execute();
    return { mobiles: [], emails: rows.map((r) => r.email) };
  }
  const row = await db
    .selectFrom('businesses as b')
    .leftJoin('groups as g', 'g.id', 'b.group_id')
    .select(['b.keyholders_mobile_numbers', 'b.notification_emails', 'g.email as group_email'])
    .where('b.id', '=', businessId)
    .executeTakeFirstOrThrow();
  const emails = [...new Set([...(row.group_email ? [row.group_email] : []), ...row.notification_emails])];
  return { mobiles: row.keyholders_mobile_numbers, emails };
}
