import { expect, it } from 'bun:test';
import { nhsCheckDigit, testNhsNumbers } from './seed/data.ts';
import { seedDemo, seedFirstAdmin } from './seed.ts';
import { describeDb, stubOrderPin } from './testing.ts';

const opts = {
  adminEmail: ' Admin@MedLocker.example.com ',
  adminPasswordHash: '$argon2id$v=19$m=65536,t=2,p=1$demo$hash',
  orderPin: stubOrderPin,
};

it('computes NHS check digits by the mod-11 rule', () => {
  expect(nhsCheckDigit('943476591')).toBe(9); // 943 476 5919, the NHS's own published example
  expect(nhsCheckDigit('999123013')).toBe(0); // 11 becomes 0
  expect(nhsCheckDigit('999123005')).toBeUndefined(); // 10: no number can be issued with this stem
  const numbers = testNhsNumbers(12);
  expect(numbers).toHaveLength(12);
  expect(numbers.some((n) => n.startsWith('999123005'))).toBe(false);
  expect(numbers).toContain('9991230130');
});

describeDb('seedDemo', (t) => {
  it('fills an empty database with the promised demo', async () => {
    expect(await seedDemo(t.db, opts)).toEqual({ seeded: true });
    const businesses = await t.db.selectFrom('businesses').selectAll().execute();
    expect(businesses).toHaveLength(3);
    expect(businesses.filter((b) => b.archived_at !== null)).toHaveLength(1);
    expect(businesses.filter((b) => b.group_id !== null)).toHaveLength(1);
    const partners = await t.db.selectFrom('integration_partners').selectAll().execute();
    expect(partners).toHaveLength(5);
    expect(partners.filter((p) => p.suppress_patient_messages)).toHaveLength(2);
    for (const b of businesses) {
      expect(b.postcode ?? '').toMatch(/^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$/);
      for (const mobile of b.keyholders_mobile_numbers) expect(mobile).toMatch(/^\+447700900\d{3}$/);
    }
    expect(await t.db.selectFrom('groups').select('id').execute()).toHaveLength(2);

    const admin = await t.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(admin).toMatchObject({
      email_normalised: 'admin@medlocker.example.com',
      front_end: 'support',
      password_hash: opts.adminPasswordHash,
    });
    expect(admin.given_name && admin.family_name).toBeTruthy();
    const roles = await t.db.selectFrom('user_roles').select('name').where('user_id', '=', admin.id).execute();
    expect(roles.map((r) => r.name)).toEqual(['Support']);

    const patients = await t.db.selectFrom('patients').select(['display_id', 'mobile_number']).execute();
    expect(patients.length).toBe(20);
    for (const p of patients) {
      expect(p.display_id).toMatch(/^999\d{7}$/);
      expect(nhsCheckDigit(p.display_id.slice(0, 9))).toBe(Number(p.display_id[9]));
      expect(p.mobile_number ?? '').toMatch(/^\+447700900\d{3}$/);
    }

    const machines = await t.db.selectFrom('machines').selectAll().execute();
    expect(machines.some((m) => m.is_test)).toBe(true);
    expect(machines.some((m) => m.out_of_order_at !== null)).toBe(true);
    const statuses = await t.db.selectFrom('orders').select('status').distinct().execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['cancelled', 'collected', 'loaded', 'new', 'removed']);
    expect((await t.db.selectFrom('order_events').select('id').execute()).length).toBeGreaterThan(12);
    expect((await t.db.selectFrom('bags').select('id').execute()).length).toBeGreaterThan(0);
    expect((await t.db.selectFrom('machine_events').select('id').execute()).length).toBeGreaterThan(0);
    expect((await t.db.selectFrom('temperature_readings').select('created').execute()).length).toBeGreaterThan(0);
    expect((await t.db.selectFrom('patient_sign_ups').select('id').execute()).length).toBeGreaterThan(0);
    const settings = await t.db.selectFrom('global_settings').selectAll().executeTakeFirstOrThrow();
    expect(settings.nhs_prescription_charge).toBe(990);
  });

  it('writes orders as the api would: PINs only sealed, references and sequences counted, no PIN in bags or messages', async () => {
    await seedDemo(t.db, opts);
    const orders = await t.db.selectFrom('orders').selectAll().orderBy('created').execute();
    for (const o of orders) {
      expect(o.pin).toBe(`sealed:${o.id}`);
      expect(o.pin_lookup ?? '').toStartWith('lookup:');
      expect(JSON.stringify(o.machine_details ?? {})).not.toMatch(/"pin":"/);
      expect(o.reference).toMatch(/^\d{6}$/);
      expect(o.machine_sequence === null).toBe(o.machine_id === null);
    }
    const counters = new Map(
      (await t.db.selectFrom('order_counters').selectAll().execute()).map((c) => [c.scope, Number(c.value)]),
    );
    for (const businessId of new Set(orders.map((o) => o.business_id))) {
      const references = orders.filter((o) => o.business_id === businessId).map((o) => Number(o.reference));
      // oldest first from 1, and the counter where the next order carries on
      expect(references).toEqual(references.map((_, i) => i + 1));
      expect(counters.get(`reference:${businessId}`)).toBe(references.length);
    }
    for (const machineId of new Set(orders.flatMap((o) => (o.machine_id ? [o.machine_id] : [])))) {
      const sequences = orders.filter((o) => o.machine_id === machineId).map((o) => Number(o.machine_sequence));
      expect(sequences).toEqual(sequences.map((_, i) => i + 1));
      expect(counters.get(`machine:${machineId}`)).toBe(sequences.length);
    }
    const bags = await t.db.selectFrom('bags').select('pin').execute();
    expect(bags.every((b) => b.pin === null)).toBe(true);
    const bodies = await t.db
      .selectFrom('message_outbox')
      .select('body')
      .where('template_key', '=', 'orderReady')
      .execute();
    expect(bodies.length).toBeGreaterThan(0);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder the sender fills in.
    for (const m of bodies) expect(m.body).toContain('${pin}');
    // A loaded order with charges to pay at a paying machine was sent the payment-required message, as the
    // api would (its PIN opens nothing yet), and every loaded order says its text was delivered.
    const loaded = await t.db
      .selectFrom('orders')
      .innerJoin('message_outbox', 'message_outbox.order_id', 'orders.id')
      .select(['template_key', 'payment_status', 'machine_payment', 'last_notification_status'])
      .where('orders.status', '=', 'loaded')
      .execute();
    expect(loaded.some((o) => o.template_key === 'paymentRequired')).toBe(true);
    for (const o of loaded) {
      const payFirst = o.payment_status === 'unpaid' && o.machine_payment;
      expect([o.template_key, o.last_notification_status]).toEqual([
        payFirst ? 'paymentRequired' : 'orderReady',
        'success',
      ]);
    }
  });

  it('marks the demo lockers that report (live, not test machines) and no other', async () => {
    await seedDemo(t.db, opts);
    const machines = await t.db.selectFrom('machines').select(['demo', 'is_test', 'last_seen']).execute();
    expect(machines.some((m) => m.demo)).toBe(true);
    for (const m of machines) expect(m.demo).toBe(!m.is_test && m.last_seen !== null);
  });

  it('seeds the first admin alone for production: no businesses, patients, orders or lockers', async () => {
    expect(await seedFirstAdmin(t.db, opts)).toEqual({ seeded: true });
    expect(await t.db.selectFrom('users').select('email').execute()).toEqual([
      { email: 'Admin@MedLocker.example.com' },
    ]);
    for (const table of ['businesses', 'patients', 'orders', 'machines', 'integration_partners'] as const) {
      expect(await t.db.selectFrom(table).select('id').execute()).toEqual([]);
    }
    expect(await t.db.selectFrom('global_settings').selectAll().execute()).toHaveLength(1);
    expect(await seedFirstAdmin(t.db, opts)).toEqual({ seeded: false });
  });

  it('does nothing when a user already exists', async () => {
    expect(await seedDemo(t.db, opts)).toEqual({ seeded: true });
    expect(await seedDemo(t.db, { ...opts, adminEmail: 'other@example.com' })).toEqual({ seeded: false });
    expect(await t.db.selectFrom('users').select('email').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('businesses').select('id').execute()).toHaveLength(3);
  });
});
