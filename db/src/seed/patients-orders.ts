/** Demo seed, part 2: patients, sign-ups, and orders in every status with their bags, history and messages. */
import type { Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import {
  ADMIN_DISPLAY,
  addressColumns as address,
  DAY,
  type Demo,
  HOUR,
  MINUTE,
  NHS_PRESCRIPTION_CHARGE,
} from './context.ts';
import { type DemoBusinessKey, demoPatients } from './data.ts';

export async function seedPatients(demo: Demo): Promise<void> {
  const { tx, now } = demo;
  for (const [i, patient] of demoPatients().entries()) {
    const business = demo.businesses.get(patient.business);
    if (!business) throw new Error(`demo patient: no business ${patient.business}`);
    const at = now - (50 - i) * DAY;
    const id = demo.id(at);
    demo.patients.push({ id, businessId: business.id, demo: patient });
    await tx
      .insertInto('patients')
      .values({
        id,
        business_id: business.id,
        display_id: patient.nhsNumber,
        given_name: patient.givenName,
        family_name: patient.familyName,
        full_name: `${patient.givenName} ${patient.familyName}`,
        date_of_birth: patient.dateOfBirth,
        email: patient.email,
        mobile_number: patient.mobileNumber,
        ...address(patient.address),
        // one patient whose last SMS bounced, one who has been deleted
        last_sms_failure: i === 4 ? JSON.stringify({ error: 'Number not reachable', timestamp: now - 3 * DAY }) : null,
        ...(i === 11
          ? { deleted_at: now - 5 * DAY, deleted_by_id: demo.adminId, deleted_by_display: ADMIN_DISPLAY }
          : {}),
        created: at,
        updated: at,
      })
      .execute();
  }
  const harborne = demo.businesses.get('harborne');
  if (!harborne) return;
  const signUps: [string, string, string, 'new' | 'validated' | 'rejected', number][] = [
    ['Ruby', 'Clarke', '1985-02-17', 'new', 1],
    ['Alfie', 'Lewis', '1977-10-09', 'validated', 2],
    ['Poppy', 'Young', '2003-06-25', 'rejected', 6],
  ];
  for (const [i, [first, last, dob, status, daysAgo]] of signUps.entries()) {
    const at = now - daysAgo * DAY;
    await tx
      .insertInto('patient_sign_ups')
      .values({
        id: demo.id(at),
        business_id: harborne.id,
        first_name: first,
        last_name: last,
        date_of_birth: dob,
        email: `${first}.${last}@example.com`.toLowerCase(),
        mobile_number: `+447700900${500 + i}`,
        address_line1: `${40 + i} Greenfield Road`,
        address_line2: 'Harborne',
        post_town: 'Birmingham',
        postcode: 'B17 0EE',
        status,
        email_code_status: status === 'new' ? 'notChecked' : 'verified',
        mobile_code_status: status === 'new' ? 'notChecked' : 'verified',
        created: at,
        updated: at,
      })
      .execute();
  }
}

type OrderStatus = 'new' | 'loaded' | 'collected' | 'removed' | 'cancelled';
type PaymentStatus = 'not_required' | 'unpaid' | 'paid' | 'exemption_declared';
type OrderPlan = {
  business: DemoBusinessKey;
  patient: number;
  status: OrderStatus;
  payment: PaymentStatus;
  daysAgo: number;
  machine?: string;
  location?: string;
  prescription?: number;
  retail?: number;
};

const ORDERS: OrderPlan[] = [
  { business: 'harborne', patient: 0, status: 'new', payment: 'not_required', daysAgo: 0.1 },
  {
    business: 'harborne',
    patient: 1,
    status: 'loaded',
    payment: 'unpaid',
    daysAgo: 1,
    machine: 'Front Window',
    location: 'A03',
    prescription: NHS_PRESCRIPTION_CHARGE,
  },
  {
    business: 'harborne',
    patient: 2,
    status: 'loaded',
    payment: 'exemption_declared',
    daysAgo: 2,
    machine: 'Front Window',
    location: 'B11',
  },
  {
    business: 'harborne',
    patient: 3,
    status: 'loaded',
    payment: 'unpaid',
    daysAgo: 3,
    machine: 'Front Window',
    location: 'C07',
    prescription: NHS_PRESCRIPTION_CHARGE,
    retail: 450,
  },
  {
    business: 'harborne',
    patient: 4,
    status: 'collected',
    payment: 'paid',
    daysAgo: 6,
    machine: 'Front Window',
    prescription: NHS_PRESCRIPTION_CHARGE,
    retail: 450,
  },
  { business: 'harborne', patient: 5, status: 'collected', payment: 'not_required', daysAgo: 9, machine: 'Car Park' },
  {
    business: 'harborne',
    patient: 6,
    status: 'removed',
    payment: 'not_required',
    daysAgo: 12,
    machine: 'Front Window',
  },
  { business: 'harborne', patient: 7, status: 'cancelled', payment: 'not_required', daysAgo: 4 },
  {
    business: 'chorlton',
    patient: 0,
    status: 'new',
    payment: 'unpaid',
    daysAgo: 0.2,
    prescription: NHS_PRESCRIPTION_CHARGE,
  },
  {
    business: 'chorlton',
    patient: 1,
    status: 'loaded',
    payment: 'not_required',
    daysAgo: 1.5,
    machine: 'Main Entrance',
    location: 'A01',
  },
  {
    business: 'chorlton',
    patient: 2,
    status: 'collected',
    payment: 'exemption_declared',
    daysAgo: 5,
    machine: 'Main Entrance',
  },
  { business: 'chorlton', patient: 3, status: 'cancelled', payment: 'not_required', daysAgo: 7 },
];

export async function seedOrders(demo: Demo): Promise<void> {
  const perBusiness = new Map<string, number>();
  for (const [i, plan] of ORDERS.entries()) {
    const business = demo.businesses.get(plan.business);
    const patients = demo.patients.filter((p) => p.businessId === business?.id);
    const patient = patients[plan.patient];
    if (!business || !patient) throw new Error(`demo order ${i}: missing business or patient`);
    const machine = plan.machine ? demo.machines.get(plan.machine) : undefined;
    const number = (perBusiness.get(business.id) ?? 1000) + 1;
    perBusiness.set(business.id, number);
    await insertOrder(demo, {
      plan,
      business,
      patient,
      machine,
      number,
      pin: String(48_213_507 + i * 7_919_123).slice(0, 8),
    });
  }
}

async function insertOrder(
  demo: Demo,
  o: {
    plan: OrderPlan;
    business: { id: string; name: string };
    patient: Demo['patients'][number];
    machine: { id: string; name: string } | undefined;
    number: number;
    pin: string;
  },
): Promise<void> {
  const { tx, now } = demo;
  const { plan, business, patient, machine } = o;
  const created = Math.round(now - plan.daysAgo * DAY);
  const loaded = created + 2 * HOUR;
  const finished = created + DAY;
  const id = demo.id(created);
  const reference = `ORD-${o.number}`;
  const barcode = `ML${String(o.number * 37).padStart(10, '0')}`;
  const patientName = `${patient.demo.givenName} ${patient.demo.familyName}`;
  const inMachine = machine && plan.status !== 'new' && plan.status !== 'cancelled';
  const prescription = plan.prescription ?? 0;
  const retail = plan.retail ?? 0;
  const row: Insertable<Database['orders']> = {
    id,
    reference,
    business_id: business.id,
    business_name: business.name,
    patient_id: patient.id,
    patient_name: patientName,
    barcode,
    machine_id: inMachine ? machine.id : null,
    machine_name: inMachine ? machine.name : null,
    machine_payment: prescription + retail > 0,
    pin: inMachine ? o.pin : null,
    status: plan.status,
    payment_status: plan.payment,
    payment_id: plan.payment === 'paid' ? `judo-demo-${o.number}` : null,
    amount_paid: plan.payment === 'paid' ? prescription + retail : 0,
    prescription_charge: prescription,
    retail_charge: retail,
    ...(plan.payment === 'exemption_declared'
      ? {
          exemption_code: 'D',
          exemption_details: JSON.stringify({
            nameOfDeclarant: patientName,
            onBehalfOfPatient: false,
            signature: patientName,
          }),
        }
      : {}),
    collection_window: 7,
    collected: plan.status === 'collected' ? finished : null,
    ...(plan.status === 'cancelled'
      ? {
          cancelled_at: finished,
          cancelled_by: demo.adminId,
          cancelled_by_display: ADMIN_DISPLAY,
          cancel_reason: 'Prescription changed by GP',
        }
      : {}),
    ...(plan.status === 'removed'
      ? { marked_removed_at: finished, marked_removed_by: demo.adminId, marked_removed_by_display: ADMIN_DISPLAY }
      : {}),
    expires_at: inMachine ? loaded + 7 * DAY : null,
    created_via: plan.business === 'chorlton' ? 'integration-api' : 'portal',
    created_by: demo.adminId,
    updated_by: demo.adminId,
    user_id: demo.adminId,
    receipt_sent: plan.payment === 'paid',
    machine_details: inMachine
      ? JSON.stringify({
          location: plan.location ?? null,
          machineId: machine.id,
          machineName: machine.name,
          pin: o.pin,
        })
      : null,
    patient_details: JSON.stringify({
      displayId: patient.demo.nhsNumber,
      name: patientName,
      mobileNumber: patient.demo.mobileNumber,
      email: patient.demo.email,
    }),
    sequence: 1,
    created,
    updated: plan.status === 'new' ? created : plan.status === 'loaded' ? loaded : finished,
  };
  await tx.insertInto('orders').values(row).execute();

  if (inMachine) {
    await tx
      .insertInto('bags')
      .values({
        id: demo.id(loaded),
        business_id: business.id,
        barcode,
        reference,
        location: plan.status === 'loaded' ? (plan.location ?? null) : null,
        machine_id: machine.id,
        order_id: id,
        pin: o.pin,
        prescription_charge: prescription,
        retail_charge: retail,
        created: loaded,
        updated: plan.status === 'loaded' ? loaded : finished,
      })
      .execute();
  }

  const history: [string, string, number][] = [['ORDER_CREATED', `Order ${reference} created`, created]];
  if (inMachine) history.push(['BAG_LOADED', `Loaded into ${machine.name}`, loaded]);
  if (plan.payment === 'paid') history.push(['PAYMENT_RECEIVED', 'Card payment received', finished - MINUTE]);
  if (plan.payment === 'exemption_declared')
    history.push(['EXEMPTION_DECLARED', 'Exemption D declared', loaded + HOUR]);
  if (plan.status === 'collected')
    history.push(['BAG_COLLECTED', `Collected from ${machine?.name ?? 'machine'}`, finished]);
  if (plan.status === 'removed') history.push(['ORDER_MARKED_REMOVED', 'Marked as removed by staff', finished]);
  if (plan.status === 'cancelled') history.push(['ORDER_CANCELLED', 'Prescription changed by GP', finished]);
  await tx
    .insertInto('order_events')
    .values(
      history.map(([code, message, at]) => ({
        id: demo.id(at),
        business_id: business.id,
        order_id: id,
        order_reference: reference,
        patient_id: patient.id,
        code,
        barcode,
        message,
        full_patient_name: patientName,
        patient_display_id: patient.demo.nhsNumber,
        created: at,
      })),
    )
    .execute();

  if (plan.status === 'loaded') {
    await tx
      .insertInto('message_outbox')
      .values({
        id: demo.id(loaded + MINUTE),
        business_id: business.id,
        order_id: id,
        patient_id: patient.id,
        channel: 'sms',
        recipient: patient.demo.mobileNumber,
        template_key: 'orderReady',
        body: `Your order from ${business.name} is ready to collect from ${machine?.name}. PIN ${o.pin.slice(0, 4)} ${o.pin.slice(4)}.`,
        status: 'success',
        attempts: 1,
        next_attempt_at: loaded + MINUTE,
        provider: 'dev',
        sent_at: loaded + MINUTE,
        created: loaded + MINUTE,
        updated: loaded + MINUTE,
      })
      .execute();
  }
}
