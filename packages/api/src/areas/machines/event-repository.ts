import type { MachineEvent } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Selectable } from 'kysely';
import { newestFirst } from '../../lists/newest-first-repository.ts';
import type { Db } from './repository.ts';

/* A machine's events, the alarms among them, and the staff notifications an alarm raises. */

function toMachineEvent(row: Selectable<Database['machine_events']>): MachineEvent {
  return {
    id: row.id,
    businessId: row.business_id,
    machineId: row.machine_id,
    bagId: row.bag_id,
    barcode: row.barcode,
    code: row.code,
    level: row.level,
    message: row.message,
    data: (row.data ?? null) as Record<string, unknown> | null,
    created: row.created,
  };
}

/** Events of a machine newest first (by time-sortable id), strictly before the cursor. */
export async function listMachineEvents(
  db: Db,
  q: { businessId: string; machineId: string; level?: string; code?: string; before?: string; limit: number },
): Promise<MachineEvent[]> {
  let query = db
    .selectFrom('machine_events')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('machine_id', '=', q.machineId);
  if (q.level) query = query.where('level', '=', q.level as MachineEvent['level']);
  if (q.code) query = query.where('code', '=', q.code);
  return (await newestFirst(query, q)).map(toMachineEvent);
}

/**
 * Alarms of these machines raised since a time (codes or levels that make an alarm), newest first, at
 * most `perMachine` a machine. One lateral probe of machine_events_machine_created_idx per machine,
 * so the cost follows the day's events of the page's machines, not their whole history.
 */
export async function listRecentAlarms(
  db: Db,
  q: { machineIds: string[]; since: number; codes: readonly string[]; levels: readonly string[]; perMachine: number },
): Promise<MachineEvent[]> {
  if (q.machineIds.length === 0) return [];
  const rows = await db
    .selectFrom('machines as m')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('machine_events as e')
          .selectAll('e')
          .whereRef('e.business_id', '=', 'm.business_id')
          .whereRef('e.machine_id', '=', 'm.id')
          .where('e.created', '>=', q.since)
          .where((w) =>
            w.or([w('e.code', 'in', [...q.codes]), w('e.level', 'in', [...q.levels] as MachineEvent['level'][])]),
          )
          .orderBy('e.created', 'desc')
          .orderBy('e.id', 'desc')
          .limit(q.perMachine)
          .as('a'),
      (join) => join.onTrue(),
    )
    .selectAll('a')
    .where('m.id', 'in', q.machineIds)
    .orderBy('a.created', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map(toMachineEvent);
}

/** A machine event to store: `lockerEventId` and `seq` when the locker reported it. */
export type NewMachineEventRow = Omit<MachineEvent, 'data'> & {
  data: Record<string, unknown>;
  lockerEventId: string | null;
  seq: number | null;
};

/** Stores a machine event and answers it as stored. */
export async function insertMachineEvent(db: Db, e: NewMachineEventRow): Promise<MachineEvent> {
  const row = await db
    .insertInto('machine_events')
    .values({
      id: e.id,
      business_id: e.businessId,
      machine_id: e.machineId,
      bag_id: e.bagId,
      barcode: e.barcode,
      code: e.code,
      level: e.level,
      message: e.message,
      data: JSON.stringify(e.data),
      locker_event_id: e.lockerEventId,
      sequence: e.seq,
      created: e.created,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMachineEvent(row);
}

/** What an alarm message needs of the machine's business: its name and who hears about alarms. */
/**
 * Who a machine's alarm goes to. A real machine's: the business's staff (a notification for all of
 * them), its keyholders' mobiles and its notification emails. A QA test machine's: only the person who
 * added it (a notification addressed to them and an email), never the business's people; nobody when
 * that person is unknown (added before it was recorded, or gone).
 */
export async function findAlarmRecipients(db: Db, machineId: string): Promise<AlarmRecipients> {
  const row = await db
    .selectFrom('machines as m')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .leftJoin('users as u', 'u.id', 'm.created_by')
    .select([
      'b.name',
      'b.keyholders_mobile_numbers',
      'b.notification_emails',
      'm.is_test',
      'u.id as user_id',
      'u.email',
    ])
    .where('m.id', '=', machineId)
    .executeTakeFirstOrThrow();
  if (!row.is_test) {
    return {
      name: row.name,
      notify: 'business',
      mobiles: row.keyholders_mobile_numbers,
      emails: row.notification_emails,
    };
  }
  if (row.user_id === null || row.email === null) return { name: row.name, notify: 'nobody', mobiles: [], emails: [] };
  return { name: row.name, notify: { userId: row.user_id }, mobiles: [], emails: [row.email] };
}

/**
 * The business's name, and who hears of an alarm: `business` (every member of its staff), one user
 * (the test machine's maker) or `nobody`; the mobiles to text and the addresses to email.
 */
export type AlarmRecipients = {
  name: string;
  notify: 'business' | 'nobody' | { userId: string };
  mobiles: string[];
  emails: string[];
};

/** The support-edited wording of an alarm's message, if any (else core's default). */
export async function findAlarmTemplateBody(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('alarm_message_templates').select('body').where('code', '=', code).executeTakeFirst();
  return row?.body;
}
