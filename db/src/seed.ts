import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import {
  DEMO_BUSINESSES,
  DEMO_GROUPS,
  DEMO_MACHINES,
  type DemoAddress,
  type DemoBusinessKey,
  type DemoPatient,
  demoPatients,
} from './seed-data.ts';

export type SeedDemoOptions = {
  adminEmail: string;
  /** A `Bun.password` hash made by the caller; the seed never sees a plain password. */
  adminPasswordHash: string;
  /** The demo's "now" in ms; defaults to the current time. */
  now?: number;
};

/** England's NHS prescription charge per item from 1 May 2025: £9.90. */
const NHS_PRESCRIPTION_CHARGE = 990;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Tx = Transaction<Database>;
type Demo = {
  tx: Tx;
  now: number;
  /** A UUIDv7 for a row made at `at`, so ids sort the way the demo's timeline does. */
  id: (at: number) => string;
  adminId: string;
  businesses: Map<DemoBusinessKey, { id: string; name: string }>;
  machines: Map<string, { id: string; businessId: string; name: string }>;
  patients: { id: string; businessId: string; demo: DemoPatient }[];
};

/**
 * Fills an empty database with a believable demo: a support admin, 3 businesses (1 archived), 2 groups,
 * machines (a test one, an out-of-order one), 20 patients, sign-ups, orders in every status with bags and
 * history, machine events, temperature readings and the global settings. Does nothing once any user
 * exists, so it is safe to call on every start. All in one transaction: a failed seed leaves nothing.
 */
export async function seedDemo(db: Kysely<Database>, opts: SeedDemoOptions): Promise<{ seeded: boolean }> {
  const now = opts.now ?? Date.now();
  return db.transaction().execute(async (tx) => {
    // Two processes starting together must not both seed: the second waits here, then sees the users.
    await sql`select pg_advisory_xact_lock(hashtext('medlocker:seed-demo'))`.execute(tx);
    const existing = await tx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return { seeded: false };

    const demo: Demo = {
      tx,
      now,
      id: (at) => Bun.randomUUIDv7('hex', at),
      adminId: '',
      businesses: new Map(),
      machines: new Map(),
      patients: [],
    };
    await seedAdmin(demo, opts);
    await seedEstate(demo);
    await seedMachines(demo);
    await seedPatients(demo);
    await seedOrders(demo);
    await tx
      .insertInto('global_settings')
      .values({ nhs_prescription_charge: NHS_PRESCRIPTION_CHARGE, updated: now, updated_by: demo.adminId })
      .execute();
    return { seeded: true };
  });
}

const address = (a: DemoAddress) => ({
  address_line1: a.line1,
  address_line2: a.line2,
  address_line3: a.line3,
  post_town: a.postTown,
  postcode: a.postcode,
});

async function seedAdmin(demo: Demo, opts: SeedDemoOptions): Promise<void> {
  const at = demo.now - 90 * DAY;
  demo.adminId = demo.id(at);
  await demo.tx
    .insertInto('users')
    .values({
      id: demo.adminId,
      email: opts.adminEmail.trim(),
      email_normalised: opts.adminEmail.trim().toLowerCase(),
      given_name: 'Sam',
      family_name: 'Support',
      password_hash: opts.adminPasswordHash,
      front_end: 'support',
      created: at,
      updated: at,
    })
    .execute();
  await demo.tx
    .insertInto('user_roles')
    .values({
      id: demo.id(at),
      user_id: demo.adminId,
      name: 'Support',
      access_levels: ['Admin'],
      description: 'Access to support portal',
      created: at,
    })
    .execute();
}

async function seedEstate(demo: Demo): Promise<void> {
  const { tx, now } = demo;
  const groupIds = new Map<string, string>();
  for (const [i, group] of DEMO_GROUPS.entries()) {
    const at = now - (80 - i) * DAY;
    const id = demo.id(at);
    groupIds.set(group.key, id);
    await tx
      .insertInto('groups')
      .values({ id, name: group.name, email: group.email, ...address(group.address), created: at, updated: at })
      .execute();
  }
  for (const [i, business] of DEMO_BUSINESSES.entries()) {
    const at = now - (75 - i) * DAY;
    const id = demo.id(at);
    demo.businesses.set(business.key, { id, name: business.name });
    await tx
      .insertInto('businesses')
      .values({
        id,
        name: business.name,
        email: business.email,
        ...address(business.address),
        group_id: business.group ? (groupIds.get(business.group) ?? null) : null,
        keyholders_mobile_numbers: [...business.keyholders],
        notification_emails: [...business.notificationEmails],
        ...(business.archived
          ? { archived_at: now - 10 * DAY, archived_by_id: demo.adminId, archived_by_display: 'Sam Support' }
          : {}),
        created: at,
        updated: business.archived ? now - 10 * DAY : at,
      })
      .execute();
    await tx
      .insertInto('business_feature_settings')
      .values({
        business_id: id,
        settings: JSON.stringify({
          charges: { enabled: true },
          retailCharges: { enabled: business.key === 'harborne' },
          displayIdField: { name: 'NHS number', required: true, validateNhsNumber: true },
          orderCollection: { defaultCollectionWindow: 7 },
        }),
        updated: at,
      })
      .execute();
  }
}

async function seedMachines(demo: Demo): Promise<void> {
  const { tx, now } = demo;
  for (const [i, machine] of DEMO_MACHINES.entries()) {
    const business = demo.businesses.get(machine.business);
    if (!business) throw new Error(`demo machine ${machine.name}: no business ${machine.business}`);
    const at = now - (60 - i) * DAY;
    const id = demo.id(at);
    demo.machines.set(machine.name, { id, businessId: business.id, name: machine.name });
    const live = !machine.test && !machine.archived;
    // Readings every 15 minutes over the last 3 hours; Main Entrance had a warm spell an hour ago.
    const readings = live
      ? Array.from({ length: 12 }, (_, r) => {
          const created = now - (12 - r) * 15 * MINUTE;
          const excursion = machine.name === 'Main Entrance' && r === 8;
          return { created, value: excursion ? 26.4 : Math.round((18.5 + ((i + r) % 5) * 0.4) * 10) / 10 };
        })
      : [];
    const average = readings.length
      ? Math.round((readings.reduce((sum, r) => sum + r.value, 0) / readings.length) * 10) / 10
      : null;
    const excursionAt = readings.find((r) => r.value > 25)?.created ?? null;
    await tx
      .insertInto('machines')
      .values({
        id,
        business_id: business.id,
        name: machine.name,
        number_of_slots: machine.slots,
        payments_enabled: machine.payments,
        is_test: machine.test ?? false,
        ...(machine.archived
          ? { archived_at: now - 10 * DAY, archived_by_id: demo.adminId, archived_by_display: 'Sam Support' }
          : {}),
        ...(machine.outOfOrder
          ? { out_of_order_at: now - 2 * DAY, out_of_order_by_id: demo.adminId, out_of_order_by_display: 'Sam Support' }
          : {}),
        temperature_average: average,
        temperature_last_excursion_at: excursionAt,
        temperature_updated: readings.length ? now - 15 * MINUTE : null,
        online: live && !machine.outOfOrder,
        last_seen: live ? now - 2 * MINUTE : null,
        created: at,
        updated: at,
      })
      .execute();
    if (readings.length) {
      await tx
        .insertInto('temperature_readings')
        .values(readings.map((r) => ({ id: demo.id(r.created), business_id: business.id, machine_id: id, ...r })))
        .execute();
    }
    if (live) {
      await tx
        .insertInto('machine_status')
        .values({
          id: demo.id(now - 5 * MINUTE),
          business_id: business.id,
          machine_id: id,
          created: now - 5 * MINUTE,
          observations: JSON.stringify({ doorClosed: true, scanner: 'ok', mainsPower: true, freeSlots: machine.slots - 3 }),
        })
        .execute();
    }
  }
  await seedMachineEvents(demo);
}

async function seedMachineEvents(demo: Demo): Promise<void> {
  const events: { machine: string; code: string; level: 'critical' | 'error' | 'info' | 'warn'; message: string; ago: number; fromLocker: boolean }[] = [
    { machine: 'Front Window', code: 'EM_0019', level: 'info', message: 'Machine booting up', ago: 3 * DAY, fromLocker: true },
    { machine: 'Front Window', code: 'EM_0001', level: 'warn', message: 'Item left in the collector', ago: 20 * HOUR, fromLocker: true },
    { machine: 'Car Park', code: 'EM_0003', level: 'error', message: 'Mains power failure', ago: 2 * DAY + HOUR, fromLocker: true },
    { machine: 'Car Park', code: 'MP_0003', level: 'warn', message: 'Machine set out of order', ago: 2 * DAY, fromLocker: false },
    { machine: 'Main Entrance', code: 'EM_0016', level: 'critical', message: 'Alarm triggered', ago: 5 * DAY, fromLocker: true },
    { machine: 'Main Entrance', code: 'MP_0001', level: 'warn', message: 'Temperature excursion', ago: HOUR, fromLocker: false },
  ];
  const sequences = new Map<string, number>();
  for (const e of events) {
    const machine = demo.machines.get(e.machine);
    if (!machine) throw new Error(`demo event: no machine ${e.machine}`);
    const created = demo.now - e.ago;
    const sequence = (sequences.get(e.machine) ?? 100) + 1;
    if (e.fromLocker) sequences.set(e.machine, sequence);
    await demo.tx
      .insertInto('machine_events')
      .values({
        id: demo.id(created),
        business_id: machine.businessId,
        machine_id: machine.id,
        code: e.code,
        level: e.level,
        message: e.message,
        data: JSON.stringify({}),
        locker_event_id: e.fromLocker ? Bun.randomUUIDv7('hex', created) : null,
        sequence: e.fromLocker ? sequence : null,
        created,
      })
      .execute();
  }
  const carPark = demo.machines.get('Car Park');
  if (carPark) {
    await demo.tx
      .insertInto('notifications')
      .values({
        id: demo.id(demo.now - 2 * DAY),
        business_id: carPark.businessId,
        level: 'warn',
        title: 'Car Park is out of order',
        body: 'Patients cannot collect from Car Park until it is back in order.',
        created: demo.now - 2 * DAY,
        updated: demo.now - 2 * DAY,
      })
      .execute();
  }
}

async function seedPatients(demo: Demo): Promise<void> {
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
        ...(i === 11 ? { deleted_at: now - 5 * DAY, deleted_by_id: demo.adminId, deleted_by_display: 'Sam Support' } : {}),
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
  { business: 'harborne', patient: 1, status: 'loaded', payment: 'unpaid', daysAgo: 1, machine: 'Front Window', location: 'A03', prescription: NHS_PRESCRIPTION_CHARGE },
  { business: 'harborne', patient: 2, status: 'loaded', payment: 'exemption_declared', daysAgo: 2, machine: 'Front Window', location: 'B11' },
  { business: 'harborne', patient: 3, status: 'loaded', payment: 'unpaid', daysAgo: 3, machine: 'Front Window', location: 'C07', prescription: NHS_PRESCRIPTION_CHARGE, retail: 450 },
  { business: 'harborne', patient: 4, status: 'collected', payment: 'paid', daysAgo: 6, machine: 'Front Window', prescription: NHS_PRESCRIPTION_CHARGE, retail: 450 },
  { business: 'harborne', patient: 5, status: 'collected', payment: 'not_required', daysAgo: 9, machine: 'Car Park' },
  { business: 'harborne', patient: 6, status: 'removed', payment: 'not_required', daysAgo: 12, machine: 'Front Window' },
  { business: 'harborne', patient: 7, status: 'cancelled', payment: 'not_required', daysAgo: 4 },
  { business: 'chorlton', patient: 0, status: 'new', payment: 'unpaid', daysAgo: 0.2, prescription: NHS_PRESCRIPTION_CHARGE },
  { business: 'chorlton', patient: 1, status: 'loaded', payment: 'not_required', daysAgo: 1.5, machine: 'Main Entrance', location: 'A01' },
  { business: 'chorlton', patient: 2, status: 'collected', payment: 'exemption_declared', daysAgo: 5, machine: 'Main Entrance' },
  { business: 'chorlton', patient: 3, status: 'cancelled', payment: 'not_required', daysAgo: 7 },
];

async function seedOrders(demo: Demo): Promise<void> {
  const perBusiness = new Map<string, number>();
  for (const [i, plan] of ORDERS.entries()) {
    const business = demo.businesses.get(plan.business);
    const patients = demo.patients.filter((p) => p.businessId === business?.id);
    const patient = patients[plan.patient];
    if (!business || !patient) throw new Error(`demo order ${i}: missing business or patient`);
    const machine = plan.machine ? demo.machines.get(plan.machine) : undefined;
    const number = (perBusiness.get(business.id) ?? 1000) + 1;
    perBusiness.set(business.id, number);
    await insertOrder(demo, { plan, business, patient, machine, number, pin: String(48_213_507 + i * 7_919_123).slice(0, 8) });
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
          exemption_details: JSON.stringify({ nameOfDeclarant: patientName, onBehalfOfPatient: false, signature: patientName }),
        }
      : {}),
    collection_window: 7,
    collected: plan.status === 'collected' ? finished : null,
    ...(plan.status === 'cancelled'
      ? { cancelled_at: finished, cancelled_by: demo.adminId, cancelled_by_display: 'Sam Support', cancel_reason: 'Prescription changed by GP' }
      : {}),
    ...(plan.status === 'removed'
      ? { marked_removed_at: finished, marked_removed_by: demo.adminId, marked_removed_by_display: 'Sam Support' }
      : {}),
    expires_at: inMachine ? loaded + 7 * DAY : null,
    created_via: plan.business === 'chorlton' ? 'integration-api' : 'portal',
    created_by: demo.adminId,
    updated_by: demo.adminId,
    user_id: demo.adminId,
    receipt_sent: plan.payment === 'paid',
    machine_details: inMachine
      ? JSON.stringify({ location: plan.location ?? null, machineId: machine.id, machineName: machine.name, pin: o.pin })
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
  if (plan.payment === 'exemption_declared') history.push(['EXEMPTION_DECLARED', 'Exemption D declared', loaded + HOUR]);
  if (plan.status === 'collected') history.push(['BAG_COLLECTED', `Collected from ${machine?.name ?? 'machine'}`, finished]);
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
