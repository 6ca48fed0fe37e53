import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';
import { Order } from '../order/order.ts';
import { OrderReason } from '../order/order-input.ts';
import { OrderStatus } from '../order/statuses.ts';
import { Timestamp } from '../stamps.ts';
import { TimeInput } from '../validation/general.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';

/*
 * The evidence pack: for one machine and a time range, what happened inside it (temperature,
 * alarms, outages), which orders were in it meanwhile, what each patient was told and who acted; and
 * from it, holding the PINs of affected orders until staff have checked them. docs/decisions/reports.md, "The evidence pack".
 */

/** The longest range one pack covers: a month of minute readings, and a page a person can read. */
export const evidenceMaxRangeDays = 31;
/** At most this many orders are held or released in one call (one transaction). */
export const pinHoldsMax = 200;
/** The page lists at most this many out-of-band readings; the downloaded file has every reading (up to the bound below). */
export const evidenceOutsideReadingsMax = 500;
/**
 * The file holds at most this many readings (one every 11 s over 31 days; lockers send about one a
 * minute), so a locker that reports far more often cannot make one download hold the server's memory.
 * Its summary says when a range had more.
 */
export const evidenceFileReadingsMax = 250_000;

const Range = { machineId: Id, from: TimeInput, to: TimeInput };

/** A machine event as the pack shows it: an alarm, an excursion or an outage (MP_0003/MP_0006). */
export const EvidenceMachineEvent = type({
  id: 'string',
  code: 'string',
  name: 'string',
  level: Level,
  message: 'string',
  barcode: 'string | null',
  created: Timestamp,
});
export type EvidenceMachineEvent = typeof EvidenceMachineEvent.infer;

/** A message to the patient of an affected order: never its body's PIN (the outbox holds none). */
export const EvidenceMessage = type({
  id: 'string',
  templateKey: 'string',
  name: 'string',
  channel: "'sms' | 'email' | 'whatsapp'",
  /** Masked, as timelines show it: 07••• •••123. */
  recipient: 'string',
  status: "'pending' | 'success' | 'failed'",
  body: 'string',
  created: Timestamp,
  sentAt: Timestamp.or('null'),
});
export type EvidenceMessage = typeof EvidenceMessage.infer;

/** Something done to an affected order in the range, and by whom (a user, the locker, the system). */
export const EvidenceAction = type({
  /** The order event's id, or the audit entry's (a change to the machine). */
  id: 'string',
  at: Timestamp,
  orderId: 'string | null',
  orderReference: 'string | null',
  code: 'string',
  message: 'string',
  by: 'string',
  via: 'string',
});
export type EvidenceAction = typeof EvidenceAction.infer;

/** An order that was inside the machine at some time in the range. */
export const EvidenceOrder = type({
  id: 'string',
  reference: 'string',
  patientName: 'string',
  patientDisplayId: 'string',
  barcode: 'string',
  status: OrderStatus,
  /** Loaded (or moved) into this machine; the first time that counts for the range. */
  inAt: Timestamp,
  /** Out of this machine (collected, removed or moved), or null while still inside. */
  outAt: Timestamp.or('null'),
  location: 'string | null',
  /** Live now (loaded, not expired): its PIN can be held. */
  live: 'boolean',
  pinHold: Order.get('pinHold').or('null'),
  messages: EvidenceMessage.array(),
});
export type EvidenceOrder = typeof EvidenceOrder.infer;

export const EvidencePack = type({
  machine: type({ id: 'string', name: 'string', businessId: 'string', businessName: 'string' }),
  from: Timestamp,
  to: Timestamp,
  generatedAt: Timestamp,
  temperature: type({
    /** The band every ambient medicine suits (docs/LOCKER-PROTOCOL.md §11). */
    band: type({ min: 'number', max: 'number' }),
    count: 'number.integer >= 0',
    min: 'number | null',
    max: 'number | null',
    average: 'number | null',
    outsideCount: 'number.integer >= 0',
    /** The first {@link evidenceOutsideReadingsMax} readings outside the band, oldest first. */
    outside: type({ created: Timestamp, value: 'number' }).array(),
    /** MP_0001: the 3-hour average left the band. */
    excursions: EvidenceMachineEvent.array(),
  }),
  /** Alarms (warn, error, critical) and outages (out of order, offline) and their ends, oldest first. */
  alarms: EvidenceMachineEvent.array(),
  orders: EvidenceOrder.array(),
  /** Who did what to those orders in the range, oldest first. */
  actions: EvidenceAction.array(),
});
export type EvidencePack = typeof EvidencePack.infer;

const HoldInput = type({
  orderIds: Id.array().atLeastLength(1).atMostLength(pinHoldsMax),
  reason: OrderReason,
});

export const evidence = defineArea({
  getEvidencePack: {
    input: type(Range),
    output: type({ pack: EvidencePack }),
    access: staff({ machine: 'machineId' }),
    summary:
      'The evidence pack of a machine between two times (ms, at most 31 days): temperature readings and excursions, alarms and outages, the orders inside meanwhile with what each patient was told, and who acted. Reads of the orders are audited.',
  },
  downloadEvidencePack: {
    input: type(Range),
    output: type({ fileName: 'string', contentType: "'application/zip'", data: 'string' }),
    access: staff({ machine: 'machineId' }),
    summary:
      'The same pack as one ZIP file (base64): summary.txt and CSVs of every reading (at most 250,000, the summary says when there were more), the alarms, the orders, the messages and the actions.',
  },
  holdPins: {
    input: HoldInput,
    output: type({ orders: Order.array() }),
    access: staff({ order: 'orderIds' }),
    summary:
      'Holds the PINs of live (loaded, not expired) orders, all or none in one transaction: the locker refuses them (VerifyPin Held) until released, and each patient is told. A held or not-live order is 409.',
  },
  releasePins: {
    input: HoldInput,
    output: type({ orders: Order.array() }),
    access: staff({ order: 'orderIds' }),
    summary:
      'Releases held PINs, all or none in one transaction: the locker accepts them again and each patient of a live order is told. An order whose PIN is not held is 409.',
  },
});
