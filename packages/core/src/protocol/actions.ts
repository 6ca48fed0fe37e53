import { type } from 'arktype';
import { Level } from '../errors/machine-alerts.ts';

/*
 * Every action of the locker protocol with the schema of its request payload and of its result payload.
 * A payload may carry more fields than listed (a newer locker); they are ignored, never an error.
 */

/*
 * Times and sequence numbers are stored as bigint and read back as JS numbers. Bounded here, so 1e308
 * is a TypeConstraintViolation rather than a database failure answered InternalError (which has the
 * locker send it again forever): a sequence number is a safe integer, a time one a Date can hold.
 */
const Sequence = type('0 <= number.integer <= 9007199254740991');
const Timestamp = type('0 <= number.integer <= 8640000000000000');
const MachineRef = { 'machineId?': 'string > 0' } as const;

/**
 * Fields of every call that changes data: the locker's own id for the event (unique for this machine,
 * e.g. a UUID) and its per-machine sequence number (1, 2, 3, … never reused, not reset by a reboot).
 * The hub stores the event under (machine, eventId) before it answers, so sending it again changes
 * nothing and gets the same result.
 */
const EventFields = {
  ...MachineRef,
  eventId: 'string > 0 & string <= 64',
  seq: Sequence.and('number >= 1'),
  /** When it happened, by the locker's clock (ms since the epoch, UTC). */
  created: Timestamp,
} as const;

/** A temperature reading in °C at a time. */
export const Reading = type({ created: Timestamp, value: '-50 <= number <= 100' });
export type Reading = typeof Reading.infer;

const Accepted = type({ status: "'Accepted' | 'Rejected'" });
const AcceptedOrNot = type({ status: "'Accepted' | 'Rejected' | 'NotSupported'" });

/** Calls a locker makes to the hub. */
export const lockerActions = {
  BootNotification: {
    dataChanging: false,
    request: type({
      ...MachineRef,
      vendor: 'string > 0 & string <= 64',
      model: 'string > 0 & string <= 64',
      firmwareVersion: 'string > 0 & string <= 64',
      'serialNumber?': 'string <= 64',
      /** The highest sequence number the locker has used so far (0 for none). */
      'lastSeq?': Sequence,
    }),
    response: type({
      /** Always Accepted: a machine archived or removed is answered with an error and the connection closes 4001. */
      status: "'Accepted'",
      /** The hub's clock, so a locker can correct its own. */
      currentTime: Timestamp,
      /** Seconds between heartbeats the hub wants. */
      heartbeatInterval: 'number.integer >= 1',
      machineId: 'string',
      /** The highest sequence number the hub has stored for this machine, or 0. */
      lastSeq: 'number.integer >= 0',
      outOfOrder: 'boolean',
    }),
  },
  Heartbeat: {
    dataChanging: false,
    request: type({ ...MachineRef }),
    response: type({ currentTime: Timestamp }),
  },
  StatusNotification: {
    dataChanging: false,
    request: type({
      ...MachineRef,
      /** Whatever the locker observes, by name: door states, slot counts, payment terminal, firmware… */
      observations: 'Record<string, unknown>',
      'created?': Timestamp,
    }),
    response: type({}),
  },
  TemperatureReadings: {
    dataChanging: true,
    request: type({ ...EventFields, readings: Reading.array().atLeastLength(1).atMostLength(600) }),
    response: type({ stored: 'number.integer >= 0' }),
  },
  MachineEvent: {
    dataChanging: true,
    request: type({
      ...EventFields,
      /** An EM_ code of the catalogue; an unknown EM_ code is stored as sent. */
      code: /^EM_\d{4}$/,
      /** Defaults to the catalogue's level for the code. */
      'level?': Level,
      'message?': 'string <= 500',
      'bagId?': 'string <= 64',
      'barcode?': 'string <= 128',
      'data?': 'Record<string, unknown>',
    }),
    response: type({ id: 'string' }),
  },
  BagLoaded: {
    dataChanging: true,
    request: type({
      ...EventFields,
      barcode: 'string > 0 & string <= 128',
      location: 'string > 0 & string <= 32',
      /**
       * The text of the bag's QR code when the locker read one (a pharmacy-signed order, core's
       * order/qr-code.ts): with no live order for the barcode, the hub creates it from the code.
       */
      'qrCode?': 'string > 0 & string <= 1024',
    }),
    response: type({
      bagId: 'string',
      orderId: 'string | null',
      /** With a qrCode: `Created` (its order made now), `Matched` (it existed), or `Refused` and why. */
      'qrCode?': type({ status: "'Created' | 'Matched' | 'Refused'", 'reason?': 'string' }),
    }),
  },
  BagRemoved: {
    dataChanging: true,
    request: type({
      ...EventFields,
      barcode: 'string > 0 & string <= 128',
      'location?': 'string <= 32',
      /** Why it left the locker: staff took it back, it expired, or the locker cannot tell. */
      'reason?': "'staff' | 'expired' | 'unknown'",
    }),
    response: type({ bagId: 'string | null' }),
  },
  /**
   * A patient typed a PIN: may the locker release a bag? Asked online only, never queued. Accepted
   * names the slot to open; every other answer opens nothing (docs/LOCKER-PROTOCOL.md §6, VerifyPin).
   */
  VerifyPin: {
    dataChanging: false,
    request: type({ ...MachineRef, pin: /^\d{4,12}$/ }),
    response: type({
      status: "'Accepted' | 'Invalid' | 'Expired' | 'PaymentRequired' | 'Held' | 'LockedOut'",
      'bagId?': 'string',
      'barcode?': 'string',
      'location?': 'string',
      /** LockedOut: seconds until the keypad takes PINs again. */
      'retryAfter?': 'number.integer > 0',
    }),
  },
  /** A patient took a bag (after an Accepted VerifyPin): the order is collected. */
  BagCollected: {
    dataChanging: true,
    request: type({ ...EventFields, barcode: 'string > 0 & string <= 128', location: 'string > 0 & string <= 32' }),
    response: type({ bagId: 'string | null', orderId: 'string | null' }),
  },
} as const;

/** Calls the hub makes to a locker. */
export const hubActions = {
  /** Staff switched the machine out of order (true) or back in order (false): stop or resume collections. */
  SetOutOfOrder: {
    request: type({ outOfOrder: 'boolean', at: Timestamp, 'by?': 'string' }),
    response: Accepted,
  },
  /** Send this message now (e.g. a fresh StatusNotification for the console). */
  TriggerStatus: {
    request: type({ requested: "'StatusNotification' | 'Heartbeat' | 'BootNotification'" }),
    response: Accepted,
  },
  /** Change one setting of the locker; unknown keys answer NotSupported. */
  ChangeConfiguration: {
    request: type({ key: 'string > 0 & string <= 64', value: 'string <= 500' }),
    response: AcceptedOrNot,
  },
  /** Restart: Soft closes the connection and reboots the software, Hard power-cycles. */
  Reset: {
    request: type({ type: "'Soft' | 'Hard'" }),
    response: Accepted,
  },
} as const;

export type LockerAction = keyof typeof lockerActions;
export type HubAction = keyof typeof hubActions;
export const lockerActionNames = Object.keys(lockerActions) as LockerAction[];
export const hubActionNames = Object.keys(hubActions) as HubAction[];

export type LockerRequest<A extends LockerAction> = (typeof lockerActions)[A]['request']['infer'];
export type LockerResponse<A extends LockerAction> = (typeof lockerActions)[A]['response']['infer'];
export type HubRequest<A extends HubAction> = (typeof hubActions)[A]['request']['infer'];
export type HubResponse<A extends HubAction> = (typeof hubActions)[A]['response']['infer'];

/** The locker actions that change data: they carry eventId and seq, are queued offline and replayed. */
export const dataChangingActions = lockerActionNames.filter((a) => lockerActions[a].dataChanging);

export const isLockerAction = (action: string): action is LockerAction => Object.hasOwn(lockerActions, action);
export const isHubAction = (action: string): action is HubAction => Object.hasOwn(hubActions, action);
