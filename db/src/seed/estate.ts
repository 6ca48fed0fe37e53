/** Demo seed, part 1: the support admin, groups, businesses, machines and what the machines report. */
import {
  ADMIN_DISPLAY,
  addressColumns as address,
  DAY,
  type Demo,
  HOUR,
  MINUTE,
  type SeedDemoOptions,
} from './context.ts';
import { DEMO_BUSINESSES, DEMO_GROUPS, DEMO_MACHINES } from './data.ts';

export async function seedAdmin(demo: Demo, opts: SeedDemoOptions): Promise<void> {
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

export async function seedEstate(demo: Demo): Promise<void> {
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
          ? { archived_at: now - 10 * DAY, archived_by_id: demo.adminId, archived_by_display: ADMIN_DISPLAY }
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

export async function seedMachines(demo: Demo): Promise<void> {
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
        // The demo fleet reports for the demo's live lockers while a development server runs (never in
        // production); one that never connected stays so, as the dashboards show it.
        demo: live && !(machine.test ?? false),
        ...(machine.archived
          ? { archived_at: now - 10 * DAY, archived_by_id: demo.adminId, archived_by_display: ADMIN_DISPLAY }
          : {}),
        ...(machine.outOfOrder
          ? { out_of_order_at: now - 2 * DAY, out_of_order_by_id: demo.adminId, out_of_order_by_display: ADMIN_DISPLAY }
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
        .values(readings.map((r) => ({ business_id: business.id, machine_id: id, ...r })))
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
          observations: JSON.stringify({
            doorClosed: true,
            scanner: 'ok',
            mainsPower: true,
            freeSlots: machine.slots - 3,
          }),
        })
        .execute();
    }
  }
  await seedMachineEvents(demo);
}

async function seedMachineEvents(demo: Demo): Promise<void> {
  const events: {
    machine: string;
    code: string;
    level: 'critical' | 'error' | 'info' | 'warn';
    message: string;
    ago: number;
    fromLocker: boolean;
  }[] = [
    {
      machine: 'Front Window',
      code: 'EM_0019',
      level: 'info',
      message: 'Machine booting up',
      ago: 3 * DAY,
      fromLocker: true,
    },
    {
      machine: 'Front Window',
      code: 'EM_0001',
      level: 'warn',
      message: 'Item left in the collector',
      ago: 20 * HOUR,
      fromLocker: true,
    },
    {
      machine: 'Car Park',
      code: 'EM_0003',
      level: 'error',
      message: 'Mains power failure',
      ago: 2 * DAY + HOUR,
      fromLocker: true,
    },
    {
      machine: 'Car Park',
      code: 'MP_0003',
      level: 'warn',
      message: 'Machine set out of order',
      ago: 2 * DAY,
      fromLocker: false,
    },
    {
      machine: 'Main Entrance',
      code: 'EM_0016',
      level: 'critical',
      message: 'Alarm triggered',
      ago: 5 * DAY,
      fromLocker: true,
    },
    {
      machine: 'Main Entrance',
      code: 'MP_0001',
      level: 'warn',
      message: 'Temperature excursion',
      ago: HOUR,
      fromLocker: false,
    },
  ];
  const sequences = new Map<string, number>();
  const eventIds = new Map<string, string>();
  for (const e of events) {
    const machine = demo.machines.get(e.machine);
    if (!machine) throw new Error(`demo event: no machine ${e.machine}`);
    const created = demo.now - e.ago;
    const sequence = (sequences.get(e.machine) ?? 100) + 1;
    if (e.fromLocker) sequences.set(e.machine, sequence);
    const id = demo.id(created);
    eventIds.set(`${e.machine} ${e.code}`, id);
    await demo.tx
      .insertInto('machine_events')
      .values({
        id,
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
        // What the console shows and links to, as a machine's own notifications name it.
        details: JSON.stringify({
          machineId: carPark.id,
          machineName: 'Car Park',
          code: 'MP_0003',
          eventId: eventIds.get('Car Park MP_0003'),
        }),
        created: demo.now - 2 * DAY,
        updated: demo.now - 2 * DAY,
      })
      .execute();
  }
}
