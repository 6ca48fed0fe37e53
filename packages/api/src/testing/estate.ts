import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

/*
 * A populated estate written straight into the tables, at chosen ages: the retention, erasure and
 * subject access tests decide what is past its time by these ages.
 */

export const DAY = 24 * 60 * 60 * 1000;
export const YEAR = 365 * DAY;

let n = 0;
const nextId = (prefix: string) => `${prefix}-${++n}-${Bun.randomUUIDv7().slice(-8)}`;

export async function estateBusiness(db: Kysely<Database>, name = 'Retention Pharmacy'): Promise<string> {
  const id = nextId('biz');
  await db.insertInto('businesses').values({ id, name, created: 1, updated: 1 }).execute();
  return id;
}

export async function estatePatient(db: Kysely<Database>, businessId: string, created: number, name = 'Ada Lovelace') {
  const id = nextId('pat');
  const [given = '', family = ''] = name.split(' ');
  await db
    .insertInto('patients')
    .values({
      id,
      business_id: businessId,
      display_id: `D${n}`,
      given_name: given,
      family_name: family,
      full_name: name,
      date_of_birth: '1980-01-02',
      email: `${id}@example.com`,
      mobile_number: '+447700900123',
      address_line1: '1 High Street',
      post_town: 'LEEDS',
      postcode: 'LS1 4AP',
      created,
      updated: created,
    })
    .execute();
  return id;
}

type OrderOptions = {
  status?: 'new' | 'loaded' | 'collected' | 'removed' | 'cancelled';
  /** When it was added; its last change is `updated` (the retention clock), `created` when not given. */
  created: number;
  updated?: number;
  exemption?: boolean;
  pinRevealed?: boolean;
};

/** An order with one timeline event and one message to its patient, all at its `updated` time. */
export async function estateOrder(
  db: Kysely<Database>,
  businessId: string,
  patientId: string,
  options: OrderOptions,
): Promise<{ orderId: string; messageId: string; reference: string }> {
  const orderId = nextId('ord');
  const reference = `R${n}`;
  const updated = options.updated ?? options.created;
  const patient = await db
    .selectFrom('patients')
    .select('full_name')
    .where('id', '=', patientId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('orders')
    .values({
      id: orderId,
      reference,
      business_id: businessId,
      business_name: 'Retention Pharmacy',
      patient_id: patientId,
      patient_name: patient.full_name,
      patient_details: JSON.stringify({ mobileNumber: '+447700900123' }),
      barcode: `BC${n}`,
      pin: '123456',
      status: options.status ?? 'collected',
      collection_window: 7,
      created_via: 'portal',
      ...(options.status === 'collected' || options.status === undefined ? { collected: updated } : {}),
      ...(options.exemption
        ? {
            exemption_code: 'E' as const,
            payment_status: 'exemption_declared' as const,
            exemption_details: JSON.stringify({ nameOfDeclarant: 'Ada Lovelace' }),
          }
        : {}),
      ...(options.pinRevealed
        ? { pin_revealed_at: updated, pin_revealed_by: 'Pat Pharmacist', pin_reveal_reason: 'Patient rang' }
        : {}),
      created: options.created,
      updated,
    })
    .execute();
  await db
    .insertInto('order_events')
    .values({
      id: nextId('ev'),
      business_id: businessId,
      order_id: orderId,
      order_reference: reference,
      patient_id: patientId,
      code: 'OE_0001',
      full_patient_name: patient.full_name,
      patient_display_id: 'D1',
      created: options.created,
    })
    .execute();
  const messageId = nextId('msg');
  await db
    .insertInto('message_outbox')
    .values({
      id: messageId,
      business_id: businessId,
      order_id: orderId,
      patient_id: patientId,
      channel: 'sms',
      recipient: '+447700900123',
      template_key: 'orderReady',
      body: `Hello ${patient.full_name}, your order ${reference} is ready`,
      status: 'success',
      next_attempt_at: updated,
      created: updated,
      updated,
    })
    .execute();
  return { orderId, messageId, reference };
}

/** Temperature readings of one machine (created for the business), at these times. */
export async function estateReadings(db: Kysely<Database>, businessId: string, times: number[]) {
  const machineId = nextId('mac');
  await db
    .insertInto('machines')
    .values({ id: machineId, business_id: businessId, name: `Locker ${n}`, number_of_slots: 8, created: 1, updated: 1 })
    .execute();
  for (const created of times) {
    await db
      .insertInto('temperature_readings')
      .values({ business_id: businessId, machine_id: machineId, created, value: 20 })
      .execute();
  }
  return machineId;
}

/** Audit entries of a business (or of none), at these times. */
export async function estateAudit(db: Kysely<Database>, businessId: string | null, times: number[]) {
  for (const at of times) {
    await db
      .insertInto('audit_log')
      .values({
        id: nextId('aud'),
        at,
        action: 'test.entry',
        entity_type: 'test',
        business_id: businessId,
        details: '{}',
      })
      .execute();
  }
}

/** An integration client of the business, so its events are stored (and delivered to a webhook URL). */
export async function estateClient(db: Kysely<Database>, businessId: string): Promise<string> {
  const id = nextId('cli');
  await db
    .insertInto('integration_clients')
    .values({
      id,
      business_id: businessId,
      name: 'PMR',
      webhook_url: 'https://pmr.example/hook',
      rate_limit: 1200,
      period_start: 1,
      created: 1,
      updated: 1,
    })
    .execute();
  return id;
}

/** An event with one delivery (`pending` or finished) and one attempt, at `created`. */
export async function estateDelivery(
  db: Kysely<Database>,
  businessId: string,
  clientId: string,
  created: number,
  status: 'pending' | 'succeeded' = 'succeeded',
) {
  const eventId = nextId('iev');
  await db
    .insertInto('integration_events')
    .values({
      id: eventId,
      business_id: businessId,
      client_id: clientId,
      seq: n,
      type: 'order.created',
      payload: '{}',
      created,
    })
    .execute();
  const deliveryId = nextId('del');
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: deliveryId,
      business_id: businessId,
      client_id: clientId,
      event_id: eventId,
      event_type: 'order.created',
      status,
      next_attempt_at: created,
      created,
      updated: created,
    })
    .execute();
  await db
    .insertInto('webhook_attempts')
    .values({
      id: nextId('att'),
      delivery_id: deliveryId,
      business_id: businessId,
      attempted_at: created,
      trigger: 'schedule',
      status: 200,
      latency_ms: 10,
    })
    .execute();
  return eventId;
}

/** A staff email (to no patient), at `created`. */
export async function estateStaffEmail(db: Kysely<Database>, businessId: string | null, created: number) {
  const id = nextId('mail');
  await db
    .insertInto('message_outbox')
    .values({
      id,
      business_id: businessId,
      channel: 'email',
      recipient: 'staff@pharmacy.test',
      template_key: 'digest',
      body: 'Digest',
      status: 'success',
      next_attempt_at: created,
      created,
      updated: created,
    })
    .execute();
  return id;
}
