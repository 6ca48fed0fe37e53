import {
  AppError,
  type EvidenceAction,
  type EvidenceOrder,
  type EvidencePack,
  evidenceMaxRangeDays,
  evidenceOutsideReadingsMax,
  isOrderExpired,
  machineAlerts,
  type OrderEvent,
  type PatientMessageKey,
  patientMessageNames,
  temperatureRange,
} from '@medlocker/core';
import { auditReads } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { maskRecipient } from '../../delivery/messages/send.ts';
import { type StoredOrder, toOrder } from '../orders/index.ts';
import {
  enteringCodes,
  findMachineWithBusiness,
  leavingCodes,
  listEventsOfOrders,
  listIncidentEvents,
  listMachineAudit,
  listMessagesOfOrders,
  listOrdersByIds,
  listReadings,
  ordersEverInMachine,
  type PackRange,
  readingStats,
} from './repository.ts';

/*
 * Building the evidence pack (docs/decisions/reports.md "Evidence pack"). Which orders were inside
 * the machine is read from the orders' timelines, not from where they are now: a bag collected after
 * the excursion was still inside during it.
 */

const DAY_MS = 86_400_000;

const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
};

export type PackInput = { machineId: string; from: number; to: number };

const rangeError = (message: string, id: string) => new AppError('VALIDATION', message, [{ path: 'to', id, message }]);

/** The range checked (400 when reversed, in the future or longer than the maximum) and the machine found. */
export async function resolveRange(deps: AppDeps, input: PackInput): Promise<PackRange & { machine: MachineRef }> {
  if (input.to <= input.from) throw rangeError('The end must be after the start', 'INVALID_DATE_RANGE');
  if (input.to - input.from > evidenceMaxRangeDays * DAY_MS) {
    throw rangeError(`An evidence pack covers at most ${evidenceMaxRangeDays} days`, 'RANGE_TOO_LONG');
  }
  if (input.from > deps.now()) throw rangeError('The start is in the future', 'INVALID_DATE_RANGE');
  const machine = await findMachineWithBusiness(deps.db, input.machineId);
  if (!machine) throw new AppError('NOT_FOUND', `No machine with id ${input.machineId}`);
  return {
    businessId: machine.businessId,
    machineId: machine.id,
    from: input.from,
    to: input.to,
    machine: {
      id: machine.id,
      name: machine.name,
      businessId: machine.businessId,
      businessName: machine.businessName,
    },
  };
}

type MachineRef = EvidencePack['machine'];

type Stay = { inAt: number; outAt: number | null; location: string | null };

/** The stays of an order's bag in the machine, from its events (oldest first). */
export function staysInMachine(events: readonly OrderEvent[], machineId: string): Stay[] {
  const stays: Stay[] = [];
  let open: Stay | null = null;
  for (const e of events) {
    const data = (e.data ?? {}) as { machineId?: string; location?: string; bagLoadedAt?: number };
    const entering = (enteringCodes as readonly string[]).includes(e.code);
    if (entering && data.machineId === machineId) {
      // A move to another slot of the same machine keeps the stay and changes the slot. A bag that
      // waited for its order counts from when it went in, not from when the order was made.
      if (open) open.location = data.location ?? open.location;
      else open = { inAt: Number(data.bagLoadedAt ?? e.created), outAt: null, location: data.location ?? null };
    } else if (open && (entering || (leavingCodes as readonly string[]).includes(e.code))) {
      open.outAt = Number(e.created);
      stays.push(open);
      open = null;
    }
  }
  if (open) stays.push(open);
  return stays;
}

const alarmOf = (row: {
  id: string;
  code: string;
  level: 'critical' | 'error' | 'info' | 'warn';
  message: string;
  barcode: string | null;
  created: number | string;
}) => ({
  id: row.id,
  code: row.code,
  name: machineAlerts[row.code as keyof typeof machineAlerts]?.name ?? row.code,
  level: row.level,
  message: row.message,
  barcode: row.barcode,
  created: Number(row.created),
});

/** A queued message as the pack shows it: the PIN and payment link stay placeholders (no row holds them). */
const shownBody = (body: string) =>
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders as the outbox keeps them.
  body.replaceAll('${pin}', '[PIN]').replaceAll('${portal}', '[payment link]');

export type BuiltPack = { pack: EvidencePack; orderRows: StoredOrder[] };

type Range = Awaited<ReturnType<typeof resolveRange>>;
type EventRows = Awaited<ReturnType<typeof listEventsOfOrders>>;
type MessageRows = Awaited<ReturnType<typeof listMessagesOfOrders>>;

/** The orders in the machine during the range, each with its stay there, in the order they went in. */
function affectedOrders(rows: StoredOrder[], events: EventRows, r: Range): { row: StoredOrder; stay: Stay }[] {
  const eventsByOrder = groupBy(events, (e) => e.orderId);
  const affected: { row: StoredOrder; stay: Stay }[] = [];
  for (const row of rows) {
    const stay = staysInMachine(eventsByOrder.get(row.id) ?? [], r.machineId).find(
      (s) => s.inAt <= r.to && (s.outAt === null || s.outAt >= r.from),
    );
    if (stay) affected.push({ row, stay });
  }
  affected.sort((a, b) => a.stay.inAt - b.stay.inAt || (a.row.id < b.row.id ? -1 : 1));
  return affected;
}

/** An order as the pack shows it: its stay, whether it is live, its PIN hold and its messages. */
function evidenceOrderOf(row: StoredOrder, stay: Stay, messages: MessageRows, now: number): EvidenceOrder {
  const order = toOrder(row);
  return {
    id: order.id,
    reference: order.reference,
    patientName: order.patientName,
    patientDisplayId: String((order.patientDetails as { displayId?: string } | null)?.displayId ?? ''),
    barcode: order.barcode,
    status: order.status,
    inAt: stay.inAt,
    outAt: stay.outAt,
    location: stay.location,
    live: order.status === 'loaded' && !isOrderExpired(order, now),
    pinHold: order.pinHold ?? null,
    messages: messages.map((m) => ({
      id: m.id,
      templateKey: m.templateKey,
      name: patientMessageNames[m.templateKey as PatientMessageKey] ?? m.templateKey,
      channel: m.channel,
      recipient: maskRecipient(m.recipient),
      status: m.status,
      body: shownBody(m.body),
      created: Number(m.created),
      sentAt: m.sentAt === null ? null : Number(m.sentAt),
    })),
  };
}

/** What was done in the range: the affected orders' events and the machine's audited changes, by time. */
function actionsOf(
  events: EventRows,
  machineAudit: Awaited<ReturnType<typeof listMachineAudit>>,
  affectedSet: Set<string>,
  r: Range,
): EvidenceAction[] {
  return [
    ...events
      .filter((e) => affectedSet.has(e.orderId) && e.created >= r.from)
      .map((e) => {
        const data = (e.data ?? {}) as { byName?: string | null; via?: string };
        return {
          id: e.id,
          at: e.created,
          orderId: e.orderId,
          orderReference: e.orderReference,
          code: e.code,
          message: e.message,
          by: data.byName ?? data.via ?? '',
          via: data.via ?? '',
        };
      }),
    ...machineAudit.map((a) => ({
      id: a.id,
      at: Number(a.at),
      orderId: null,
      orderReference: null,
      code: a.action,
      message: `Machine ${r.machine.name}: ${a.action.replace(/^machine\./, '')}`,
      by: a.actorDisplay ?? '',
      via: 'portal',
    })),
  ].sort((a, b) => a.at - b.at);
}

/**
 * The pack of a machine over a range. Each order shown is a read of patient data: audited, one entry
 * per order, with `via` saying whether it was the page or the file.
 */
export async function buildPack(
  deps: AppDeps,
  actor: StaffActor,
  input: PackInput,
  via: 'evidencePack' | 'evidencePack.download',
): Promise<BuiltPack> {
  const r = await resolveRange(deps, input);
  const db = deps.db;
  const candidates = await ordersEverInMachine(db, r);
  const [stats, outside, incidents, events, rows, machineAudit] = await Promise.all([
    readingStats(db, r, temperatureRange),
    listReadings(db, r, { outside: temperatureRange, limit: evidenceOutsideReadingsMax }),
    listIncidentEvents(db, r),
    listEventsOfOrders(db, r.businessId, candidates),
    listOrdersByIds(db, r.businessId, candidates),
    listMachineAudit(db, r),
  ]);
  const affected = affectedOrders(rows, events, r);
  const affectedIds = affected.map((a) => a.row.id);
  const messages = groupBy(await listMessagesOfOrders(db, r.businessId, affectedIds), (m) => m.orderId ?? '');
  const now = deps.now();
  const orders = affected.map(({ row, stay }) => evidenceOrderOf(row, stay, messages.get(row.id) ?? [], now));
  const actions = actionsOf(events, machineAudit, new Set(affectedIds), r);
  const alarms = incidents.map(alarmOf);
  await auditReads(
    db,
    deps,
    actor,
    affectedIds.map((id) => ({
      action: 'order.read',
      entityType: 'order',
      entityId: id,
      businessId: r.businessId,
      details: { via, machineId: r.machineId },
    })),
  );
  return {
    orderRows: affected.map((a) => a.row),
    pack: {
      machine: r.machine,
      from: r.from,
      to: r.to,
      generatedAt: now,
      temperature: {
        band: { ...temperatureRange },
        ...stats,
        outside: outside.map((o) => ({ created: Number(o.created), value: Number(o.value) })),
        excursions: alarms.filter((a) => a.code === 'MP_0001'),
      },
      alarms: alarms.filter((a) => a.code !== 'MP_0001'),
      orders,
      actions,
    },
  };
}
