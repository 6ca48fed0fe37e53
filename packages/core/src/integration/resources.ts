import { type } from 'arktype';
import type { Machine } from '../machine/machine.ts';
import { Barcode, CollectionWindow, OrderReason } from '../order/order-input.ts';
import { OrderStatus } from '../order/statuses.ts';
import { ImportedPatient } from '../patient/imported-patient.ts';
import type { Patient } from '../patient/patient.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { isoTime } from './events.ts';

/*
 * The resources of the integration API (`/integration/v1`) besides orders (events.ts): what
 * a pharmacy's record system sends and reads. Times are ISO 8601 in UTC, money in pence.
 */

/** A patient as the integration API shows it: no staff-only fields (who deleted them, delivery failures). */
export const IntegrationPatient = type({
  id: 'string',
  /** The business's own id for the patient (its patient-record system's id, or the NHS number). */
  displayId: 'string',
  name: 'string',
  dateOfBirth: 'string | null',
  email: 'string | null',
  mobileNumber: 'string | null',
  address: type({
    line1: 'string | null',
    line2: 'string | null',
    line3: 'string | null',
    postTown: 'string | null',
    postcode: 'string | null',
  }).or('null'),
  deleted: 'boolean',
  createdAt: 'string',
  updatedAt: 'string',
});
export type IntegrationPatient = typeof IntegrationPatient.infer;

export function toIntegrationPatient(patient: Patient): IntegrationPatient {
  const a = patient.address as Record<string, string | null | undefined> | null;
  return {
    id: patient.id,
    displayId: patient.displayId,
    name: patient.name,
    dateOfBirth: patient.dateOfBirth,
    email: patient.email,
    mobileNumber: patient.mobileNumber,
    address: a
      ? {
          line1: a.line1 ?? null,
          line2: a.line2 ?? null,
          line3: a.line3 ?? null,
          postTown: a.postTown ?? null,
          postcode: a.postcode ?? null,
        }
      : null,
    deleted: patient.deleted !== null,
    createdAt: isoTime(patient.created),
    updatedAt: isoTime(patient.updated),
  };
}

/** A locker as the integration API shows it. */
export const IntegrationMachine = type({
  id: 'string',
  name: 'string',
  numberOfSlots: 'number.integer >= 0',
  paymentsEnabled: 'boolean',
  outOfOrder: 'boolean',
  archived: 'boolean',
  createdAt: 'string',
});
export type IntegrationMachine = typeof IntegrationMachine.infer;

export function toIntegrationMachine(machine: Machine): IntegrationMachine {
  return {
    id: machine.id,
    name: machine.name,
    numberOfSlots: machine.numberOfSlots,
    paymentsEnabled: machine.paymentsEnabled,
    outOfOrder: machine.outOfOrderStatus !== null,
    archived: machine.archived !== null,
    createdAt: isoTime(machine.created),
  };
}

/** Whether a locker can take an order now, and how many of its slots hold no bag. */
export const IntegrationAvailability = type({
  machineId: 'string',
  numberOfSlots: 'number.integer >= 0',
  occupiedSlots: 'number.integer >= 0',
  freeSlots: 'number.integer >= 0',
  /** Orders for new bags are accepted: not archived, not out of order, a slot free. */
  canTakeOrder: 'boolean',
  /** Why not, when it cannot: 'archived', 'outOfOrder', 'full'. */
  reasons: type("'archived' | 'outOfOrder' | 'full'").array(),
});
export type IntegrationAvailability = typeof IntegrationAvailability.infer;

/** Pence: at most £10,000 a charge. */
const Pence = type('0 <= number.integer <= 1000000');

/** `POST /integration/v1/orders`: the console's order, in the client's business; charges in pence. */
export const IntegrationOrderInput = type({
  '+': 'reject',
  barcode: Barcode,
  patientId: upTo(stringLimits.id),
  'machineId?': Id.or('null'),
  'collectionWindow?': CollectionWindow,
  'prescriptionCharge?': Pence,
  'retailCharge?': Pence,
});
export type IntegrationOrderInput = typeof IntegrationOrderInput.inferIn;

/** `POST /integration/v1/orders/{id}/cancel`. */
export const IntegrationCancelInput = type({ '+': 'reject', reason: OrderReason });

/**
 * `POST /integration/v1/patients`: a patient upserted by `displayId`, the business's own id for them
 * (its record system's id or the NHS number, as the business's Patient ID setting says). A field the
 * document does not declare, at any depth, is refused (400), as in every other body.
 */
export const IntegrationPatientInput = ImportedPatient.onDeepUndeclaredKey('reject');

/** `GET /integration/v1/orders` filters; `created*` are ISO 8601 times, `cursor` the last page's `next`. */
export const IntegrationOrderQuery = type({
  '+': 'reject',
  'status?': OrderStatus,
  'patientId?': upTo(stringLimits.id),
  'barcode?': upTo(stringLimits.barcode),
  'createdFrom?': 'string.date.iso.parse',
  'createdTo?': 'string.date.iso.parse',
  'cursor?': 'string <= 200',
  'limit?': type('string.integer.parse').to('1 <= number <= 200'),
});

/** `GET /integration/v1/events` */
export const IntegrationEventsQuery = type({
  '+': 'reject',
  'after?': type('string.integer.parse').to('number >= 0'),
  'limit?': type('string.integer.parse').to('1 <= number <= 500'),
});

/** `GET /integration/v1/patients`: look one up by the business's id for them. */
export const IntegrationPatientQuery = type({ '+': 'reject', displayId: upTo(stringLimits.id) });

/** `POST /integration/v1/oauth/token` (RFC 6749 §4.4; the client may authenticate with HTTP Basic instead). */
export const IntegrationTokenRequest = type({
  grant_type: "'client_credentials'",
  'client_id?': 'string <= 200',
  'client_secret?': 'string <= 200',
  'scope?': 'string <= 200',
});

export const IntegrationTokenResponse = type({
  access_token: 'string',
  token_type: "'Bearer'",
  expires_in: 'number.integer > 0',
});

/** A page of a list: the items and the cursor of the next page (null on the last). */
export const integrationPage = <T extends type.Any>(item: T, name: string) =>
  type({ [name]: item.array(), next: 'string | null' } as never);
