import {
  type Alarm,
  type IntegrationEventType,
  isoTime,
  type MachineEvent,
  machineAlerts,
  type Order,
  type OrderAction,
  toIntegrationOrder,
} from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { AppDeps } from '../../context/deps.ts';
import { recordEvent } from './events.ts';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * What each flow tells a pharmacy's record system (the table is in docs/decisions/integration.md,
 * "Integration events"): called by the flows in the transaction of their change, so an event commits
 * or rolls back with it. Each costs one statement, which stores nothing for a business without an
 * integration client.
 */

export type OrderEventType = Extract<IntegrationEventType, `order.${string}`>;

/**
 * Rows of several businesses in the order their integration events are recorded in one transaction (a
 * sweep): every process locks the businesses' client rows in the same order, so two sweeps never wait
 * on each other in a circle.
 */
export const inBusinessOrder = <T>(rows: readonly T[], businessOf: (row: T) => string): T[] =>
  [...rows].sort((a, b) => {
    const [x, y] = [businessOf(a), businessOf(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });

/** The event an order move is (core's OrderAction); actions that are not a change a PMR hears of have none. */
export const orderEventOfAction: Partial<Record<OrderAction, OrderEventType>> = {
  load: 'order.loaded',
  collect: 'order.collected',
  markCollected: 'order.collected',
  remove: 'order.removed',
  markRemoved: 'order.removed',
  cancel: 'order.cancelled',
  expire: 'order.expired',
};

/** What changed in an order's payment, beside the order itself (never a card number nor the signature). */
export type PaymentChange =
  | { change: 'card_payment'; receiptId: string; amount: number; cardScheme?: string }
  | {
      change: 'exemption_declared';
      exemptionCode: string;
      nameOfDeclarant: string;
      onBehalfOfPatient: boolean;
      declaredAt: string;
      hrtItemsOnly?: boolean;
    };

/**
 * A PIN held or released by staff (the evidence pack's PIN holds): when and why (staff's words), never who.
 * `heldAt` is the hold's start on both: a release says which hold it ended.
 */
export type PinHoldChange = { heldAt: string; reason: string; releasedAt?: string; releaseReason?: string };

/** An order.* event: the order as it is after the change, in order of its id. */
export function emitOrderEvent(
  tx: Db,
  deps: AppDeps,
  type: OrderEventType,
  order: Order,
  payment?: PaymentChange,
  pinHold?: PinHoldChange,
) {
  return recordEvent(
    tx,
    {
      businessId: order.businessId,
      type,
      orderingKey: order.id,
      data: { ...toIntegrationOrder(order), ...(payment ? { payment } : {}), ...(pinHold ? { pinHold } : {}) },
    },
    deps.now(),
  );
}

/** A patient message's delivery status, in the integration API's words (the outbox's pending is sent). */
export type MessageStatus = 'sent' | 'delivered' | 'failed';
export const messageStatusOf = (status: 'pending' | 'success' | 'failed'): MessageStatus =>
  status === 'pending' ? 'sent' : status === 'success' ? 'delivered' : 'failed';

type MessageRef = {
  id: string;
  businessId: string | null;
  orderId: string | null;
  patientId: string | null;
  channel: string;
  templateKey: string;
  recipient?: string | null;
};

const EMAIL = /[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+\.[A-Za-z]{2,}/g;
/** A run of at least 7 digits, with the spaces, dots, dashes and brackets numbers are written with. */
const NUMBER = /\+?(?:\d[\s().-]{0,2}){6,}\d/g;

/**
 * A failure's words without whom the message was for: providers' refusals and SMTP replies often name
 * the number or address they refused, and the event carries no recipient (docs/decisions/integration.md).
 */
export function withoutRecipient(error: string, recipient: string | null | undefined): string {
  const mentioned = recipient?.trim();
  const words = mentioned ? error.split(mentioned).join('[recipient]') : error;
  return words.replace(EMAIL, '[recipient]').replace(NUMBER, '[recipient]').slice(0, 500);
}

/**
 * message.status: a message to a patient of a business (about an order, or to a patient) changed its
 * delivery status. Never its body (it may carry the PIN) nor its recipient. In order of its order, so an
 * order's messages and its status events stay in order; else of the message.
 */
export async function emitMessageStatus(
  tx: Db,
  deps: AppDeps,
  message: MessageRef,
  status: MessageStatus,
  error?: string | null,
) {
  if (message.businessId === null || (message.orderId === null && message.patientId === null)) return null;
  const now = deps.now();
  return recordEvent(
    tx,
    {
      businessId: message.businessId,
      type: 'message.status',
      orderingKey: message.orderId ?? message.id,
      data: {
        messageId: message.id,
        orderId: message.orderId,
        patientId: message.patientId,
        channel: message.channel,
        templateKey: message.templateKey,
        status,
        ...(status === 'failed' && error ? { error: withoutRecipient(error, message.recipient) } : {}),
        at: isoTime(now),
      },
    },
    now,
  );
}

/** A machine's state as a PMR sees it, after the change an event records. */
export type MachineState = {
  id: string;
  businessId: string;
  name: string;
  online: boolean;
  inOrder: boolean;
  archived: boolean;
};

/** The machine events that are a change of the state a PMR sees (online, in order, archived). */
const statusCodes = new Set(['MP_0002', 'MP_0003', 'MP_0004', 'MP_0005', 'MP_0006', 'MP_0007']);

/**
 * machine.status when a machine event records a change of its state, machine.alarm when the event is
 * above info (an alarm a locker raised, or one the product raised: temperature excursion, out of order,
 * offline). `machine` is the row after the change. Routine events (a scan, a boot) emit nothing.
 */
export async function emitMachineEvent(tx: Db, deps: AppDeps, machine: MachineState, event: MachineEvent) {
  const now = deps.now();
  const base = { businessId: machine.businessId, orderingKey: machine.id };
  if (statusCodes.has(event.code)) {
    await recordEvent(
      tx,
      {
        ...base,
        type: 'machine.status',
        data: {
          machineId: machine.id,
          machineName: machine.name,
          online: machine.online,
          inOrder: machine.inOrder,
          archived: machine.archived,
          at: isoTime(event.created),
        },
      },
      now,
    );
  }
  if (event.level !== 'info') {
    const name = (machineAlerts as Record<string, { name: string }>)[event.code]?.name ?? event.code;
    await recordEvent(
      tx,
      {
        ...base,
        type: 'machine.alarm',
        data: {
          machineId: machine.id,
          machineName: machine.name,
          code: event.code,
          name,
          level: event.level,
          message: event.message,
          raisedAt: isoTime(event.created),
        },
      },
      now,
    );
  }
}

/**
 * patient.erased: a patient's personal fields were removed (by staff, or by the retention policy after
 * years without an order). The partner should erase its copy; the event says only who and when.
 */
export function emitPatientErased(
  tx: Db,
  deps: AppDeps,
  patient: { id: string; businessId: string },
  reason: 'request' | 'retention',
) {
  const now = deps.now();
  return recordEvent(
    tx,
    {
      businessId: patient.businessId,
      type: 'patient.erased',
      orderingKey: patient.id,
      data: { patientId: patient.id, reason, erasedAt: isoTime(now) },
    },
    now,
  );
}

/** The steps of a critical alarm a partner hears of (docs/INTEGRATION-API.md). */
export type AlarmEventType = 'machine.alarm.acknowledged' | 'machine.alarm.escalated' | 'machine.alarm.resolved';

/**
 * machine.alarm.acknowledged, .escalated, .resolved: a critical alarm after the step, in order of its
 * machine (with its machine.alarm and machine.status). The reason and whether a person or the locker
 * acted, never the person's name nor the note (free text staff write for each other).
 */
export function emitAlarmEvent(tx: Db, deps: AppDeps, type: AlarmEventType, alarm: Alarm) {
  const now = deps.now();
  return recordEvent(
    tx,
    {
      businessId: alarm.businessId,
      type,
      orderingKey: alarm.machineId,
      data: {
        alarmId: alarm.id,
        machineId: alarm.machineId,
        machineName: alarm.machineName,
        code: alarm.code,
        name: alarm.name,
        state: alarm.state,
        raisedAt: isoTime(alarm.raisedAt),
        acknowledgedAt: alarm.acknowledged ? isoTime(alarm.acknowledged.at) : null,
        reason: alarm.acknowledged?.reason ?? null,
        resolvedAt: alarm.resolved ? isoTime(alarm.resolved.at) : null,
        resolvedBy: alarm.resolved?.how ?? null,
        escalationLevel: alarm.escalationLevel,
        at: isoTime(now),
      },
    },
    now,
  );
}
