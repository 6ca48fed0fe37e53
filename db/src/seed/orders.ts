/** Demo seed, part 3: orders in every status with their bags, history and messages. */
import type { Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import { ADMIN_DISPLAY, DAY, type Demo, HOUR, MINUTE, NHS_PRESCRIPTION_CHARGE } from './context.ts';
import type { DemoBusinessKey } from './data.ts';

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

/** The demo declarations' signature image. */
const DEMO_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

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

/**
 * Six months of finished orders at Harborne before the recent ones, so the stats page's monthly
 * figures and charts have a history on a fresh `npm start` (the `stats.monthly` job computes them at start).
 */
const HISTORY: OrderPlan[] = Array.from({ length: 36 }, (_, i) => ({
  business: 'harborne' as const,
  patient: i % 8,
  status: i % 10 === 3 ? ('cancelled' as const) : i % 10 === 7 ? ('removed' as const) : ('collected' as const),
  payment: i % 4 === 0 ? ('paid' as const) : i % 4 === 1 ? ('exemption_declared' as const) : ('not_required' as const),
  daysAgo: 16 + i * 5 + (i % 3) * 0.3,
  machine: i % 3 === 0 ? 'Car Park' : 'Front Window',
  ...(i % 4 === 0 ? { prescription: NHS_PRESCRIPTION_CHARGE } : {}),
}));

/**
 * The demo orders as the api would have made them (migration 0017): numbered oldest first, a reference
 * per business and a sequence per machine, with the counters left where a new order carries on; each
 * PIN drawn and sealed by the api (`demo.orderPin`), unique among a machine's live orders.
 */
export async function seedOrders(demo: Demo): Promise<void> {
  const counters = new Map<string, number>();
  const next = (scope: string) => {
    const value = (counters.get(scope) ?? 0) + 1;
    counters.set(scope, value);
    return value;
  };
  const livePins = new Set<string>();
  const oldestFirst = [...[...ORDERS, ...HISTORY].entries()].sort(([, a], [, b]) => b.daysAgo - a.daysAgo);
  for (const [i, plan] of oldestFirst) {
    const business = demo.businesses.get(plan.business);
    const patients = demo.patients.filter((p) => p.businessId === business?.id);
    const patient = patients[plan.patient];
    if (!business || !patient) throw new Error(`demo order ${i}: missing business or patient`);
    const machine = plan.machine ? demo.machines.get(plan.machine) : undefined;
    const inMachine = machine && plan.status !== 'new' && plan.status !== 'cancelled' ? machine : undefined;
    const created = Math.round(demo.now - plan.daysAgo * DAY);
    const id = demo.id(created);
    const live = plan.status === 'new' || plan.status === 'loaded';
    let pin = demo.orderPin(id);
    // The index orders_live_machine_pin_key would refuse a second live order with this PIN at the machine.
    while (inMachine && live && livePins.has(`${inMachine.id} ${pin.pinLookup}`)) pin = demo.orderPin(id);
    if (inMachine && live) livePins.add(`${inMachine.id} ${pin.pinLookup}`);
    const number = next(`reference:${business.id}`);
    await insertOrder(demo, {
      plan,
      id,
      created,
      business,
      patient,
      machine: inMachine,
      machineSequence: inMachine ? next(`machine:${inMachine.id}`) : null,
      reference: String(number).padStart(6, '0'),
      barcode: `ML${String((1000 + number) * 37).padStart(10, '0')}`,
      pin,
    });
  }
  await demo.tx
    .insertInto('order_counters')
    .values([...counters].map(([scope, value]) => ({ scope, value })))
    .execute();
}

async function insertOrder(
  demo: Demo,
  o: {
    plan: OrderPlan;
    id: string;
    created: number;
    business: { id: string; name: string };
    patient: Demo['patients'][number];
    /** The machine that holds or held the order's bag. */
    machine: { id: string; name: string } | undefined;
    machineSequence: number | null;
    reference: string;
    barcode: string;
    pin: ReturnType<Demo['orderPin']>;
  },
): Promise<void> {
  const { tx } = demo;
  const { plan, id, created, business, patient, machine, reference, barcode } = o;
  const loaded = created + 2 * HOUR;
  const finished = created + DAY;
  const patientName = `${patient.demo.givenName} ${patient.demo.familyName}`;
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
    machine_id: machine?.id ?? null,
    machine_name: machine?.name ?? null,
    machine_sequence: o.machineSequence,
    machine_payment: prescription + retail > 0,
    pin: o.pin.pin,
    pin_lookup: o.pin.pinLookup,
    status: plan.status,
    payment_status: plan.payment,
    payment_id: plan.payment === 'paid' ? `judo-demo-${reference}` : null,
    amount_paid: plan.payment === 'paid' ? prescription + retail : 0,
    prescription_charge: prescription,
    retail_charge: retail,
    ...(plan.payment === 'exemption_declared'
      ? {
          exemption_code: 'D',
          exemption_details: JSON.stringify({
            nameOfDeclarant: patientName,
            onBehalfOfPatient: false,
            // A drawn signature as the patient page stores it: a PNG data URL (here 1×1, transparent).
            signature: DEMO_SIGNATURE,
            declaredAt: created,
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
    expires_at: machine ? loaded + 7 * DAY : null,
    created_via: plan.business === 'chorlton' ? 'integration-api' : 'portal',
    created_by: demo.adminId,
    updated_by: demo.adminId,
    user_id: demo.adminId,
    receipt_sent: plan.payment === 'paid',
    // The loaded order's text below was delivered: the order says so, as the provider's report would.
    ...(plan.status === 'loaded' ? { last_notification_status: JSON.stringify('success') } : {}),
    // As the api writes it: the PIN never in here (toOrder reads it as null anyway).
    machine_details: machine
      ? JSON.stringify({ location: plan.location ?? null, machineId: machine.id, machineName: machine.name, pin: null })
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

  if (machine) {
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
        pin: null,
        prescription_charge: prescription,
        retail_charge: retail,
        created: loaded,
        updated: plan.status === 'loaded' ? loaded : finished,
      })
      .execute();
  }

  // The codes and sentences the api records (docs/ORDERS.md), so the demo's timelines read like real ones.
  const slot = plan.location ? `, slot ${plan.location}` : '';
  const history: [string, string, number, Record<string, unknown>?][] = [
    ['ORDER_CREATED', `Order ${reference} created`, created],
  ];
  if (machine) history.push(['ORDER_LOADED', `Loaded into ${machine.name}${slot}`, loaded]);
  if (plan.payment === 'paid') {
    const amount = prescription + retail;
    history.push([
      'PAYMENT_SUCCEEDED',
      `Paid £${(amount / 100).toFixed(2)} by card`,
      finished - MINUTE,
      { amount, receiptId: `judo-demo-${reference}` },
    ]);
  }
  if (plan.payment === 'exemption_declared')
    history.push(['EXEMPTION_DECLARED', 'Exemption D declared', loaded + HOUR, { exemptionCode: 'D' }]);
  if (plan.status === 'collected') history.push(['ORDER_COLLECTED', `Collected from ${machine?.name}`, finished]);
  if (plan.status === 'removed') history.push(['ORDER_MARKED_REMOVED', `Marked removed by ${ADMIN_DISPLAY}`, finished]);
  if (plan.status === 'cancelled')
    history.push(['ORDER_CANCELLED', `Cancelled by ${ADMIN_DISPLAY}: Prescription changed by GP`, finished]);
  await tx
    .insertInto('order_events')
    .values(
      history.map(([code, message, at, data]) => ({
        id: demo.id(at),
        business_id: business.id,
        order_id: id,
        order_reference: reference,
        patient_id: patient.id,
        code,
        barcode,
        message,
        ...(data ? { data: JSON.stringify(data) } : {}),
        full_patient_name: patientName,
        patient_display_id: patient.demo.nhsNumber,
        created: at,
      })),
    )
    .execute();

  if (plan.status === 'loaded') {
    // As the api chooses (readyMessageKey): unpaid charges at a machine that takes payment get the
    // payment-required message with the payment link, not the PIN, which opens nothing until they pay.
    const payFirst = plan.payment === 'unpaid' && prescription + retail > 0;
    await tx
      .insertInto('message_outbox')
      .values({
        id: demo.id(loaded + MINUTE),
        business_id: business.id,
        order_id: id,
        patient_id: patient.id,
        channel: 'sms',
        recipient: patient.demo.mobileNumber,
        template_key: payFirst ? 'paymentRequired' : 'orderReady',
        // the api's key: the ready message is never queued a second time for this order
        dedupe_key: `order:${id}:${payFirst ? 'paymentRequired' : 'orderReady'}`,
        // As the api queues it: the PIN and the link left as placeholders, so no outbox row ever holds a PIN.
        body: payFirst
          ? `Your order from ${business.name} needs paying before you collect it. Pay here: \${portal}`
          : `Your order from ${business.name} is ready at ${machine?.name}. PIN: \${pin}.`,
        status: 'success',
        attempts: 1,
        next_attempt_at: loaded + MINUTE,
        provider: 'local',
        sent_at: loaded + MINUTE,
        created: loaded + MINUTE,
        updated: loaded + MINUTE,
      })
      .execute();
  }
}
