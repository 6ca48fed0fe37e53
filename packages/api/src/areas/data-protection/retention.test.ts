import { beforeEach, expect, it } from 'bun:test';
import { sql } from 'kysely';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import {
  DAY,
  estateAudit,
  estateBusiness,
  estateClient,
  estateDelivery,
  estateOrder,
  estatePatient,
  estateReadings,
  estateStaffEmail,
  YEAR,
} from '../../testing/estate.ts';
import { applyRetention } from './retention-job.ts';

const ids = async (t: TestApi, table: 'temperature_readings' | 'integration_events' | 'webhook_attempts') =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n);

/**
 * Two businesses: A under the product's defaults (orders 730 days, patients 3 years, readings 730 days,
 * audit 2190 days, deliveries 90 days), B overriding orders to 30 days. Each row is on one side of its
 * period; `gone` names what the run must remove, `kept` what it must leave.
 */
async function estate(t: TestApi, asSupport: { cookie: string }) {
  const now = t.deps.now();
  const a = await estateBusiness(t.db, 'A');
  const b = await estateBusiness(t.db, 'B');
  await t.call('dataProtection', 'updateBusinessRetention', { businessId: b, orderDays: 30 }, asSupport);
  const regular = await estatePatient(t.db, a, now - 5 * YEAR, 'Regular Patient');
  const oldCollected = await estateOrder(t.db, a, regular, { created: now - 800 * DAY });
  const oldCancelled = await estateOrder(t.db, a, regular, { status: 'cancelled', created: now - 900 * DAY });
  const recent = await estateOrder(t.db, a, regular, { created: now - 100 * DAY });
  const stillLoaded = await estateOrder(t.db, a, regular, { status: 'loaded', created: now - 800 * DAY });
  const lapsed = await estatePatient(t.db, a, now - 4 * YEAR, 'Lapsed Patient');
  const lapsedOrder = await estateOrder(t.db, a, lapsed, { created: now - 4 * YEAR });
  const lastYear = await estatePatient(t.db, a, now - 4 * YEAR, 'Last Year');
  await estateOrder(t.db, a, lastYear, { created: now - YEAR });
  const other = await estatePatient(t.db, b, now - YEAR, 'Other Business');
  const bOld = await estateOrder(t.db, b, other, { created: now - 40 * DAY });
  const bNew = await estateOrder(t.db, b, other, { created: now - 20 * DAY });
  await estateReadings(t.db, a, [now - 731 * DAY, now - 800 * DAY, now - 700 * DAY, now - DAY]);
  await estateAudit(t.db, a, [now - 2191 * DAY, now - 2000 * DAY]);
  await estateAudit(t.db, null, [now - 2200 * DAY, now - 10 * DAY]);
  const client = await estateClient(t.db, a);
  await estateDelivery(t.db, a, client, now - 100 * DAY);
  await estateDelivery(t.db, a, client, now - 100 * DAY, 'pending');
  await estateDelivery(t.db, a, client, now - 10 * DAY);
  const oldMail = await estateStaffEmail(t.db, a, now - 100 * DAY);
  const newMail = await estateStaffEmail(t.db, null, now - 10 * DAY);
  await t.db
    .insertInto('monthly_business_stats')
    .values({ business_id: a, year: 2024, month: 6, orders_added: 7, orders_collected: 5, updated: 1 })
    .execute();
  return {
    a,
    b,
    regular,
    lapsed,
    lastYear,
    oldCollected,
    oldCancelled,
    recent,
    stillLoaded,
    lapsedOrder,
    bOld,
    bNew,
    oldMail,
    newMail,
  };
}

const orderRow = (t: TestApi, id: string) =>
  t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const messageRow = (t: TestApi, id: string) =>
  t.db.selectFrom('message_outbox').selectAll().where('id', '=', id).executeTakeFirst();

describeApi('retention', (t) => {
  let session: { cookie: string } | undefined;
  /** A Support user's session (one per test's database). */
  const support = async () => {
    session ??= await t.signIn({ support: true });
    return session;
  };
  beforeEach(() => {
    session = undefined;
  });

  it('previews, then removes or anonymises exactly what is past its time, and nothing else', async () => {
    const e = await estate(t, await support());
    const before = await t.call('dataProtection', 'getRetentionPolicy', {}, await support());
    // Orders: A's old collected, old cancelled and the lapsed patient's; B's 40-day-old one (30 days there).
    // Deliveries: the old finished event (its delivery and attempt go with it) and the old staff email.
    const expected = { orders: 4, patients: 1, temperatureReadings: 2, auditEntries: 2, deliveries: 2 };
    expect(before.body.preview).toEqual(expected);
    expect(
      (await t.call('dataProtection', 'getBusinessRetention', { businessId: e.b }, await support())).body.preview,
    ).toEqual({
      orders: 1,
      patients: 0,
      temperatureReadings: 0,
      auditEntries: 0,
      deliveries: 0,
    });

    expect(await applyRetention(t.deps)).toEqual(expected);

    for (const gone of [e.oldCollected, e.oldCancelled, e.lapsedOrder, e.bOld]) {
      const row = await orderRow(t, gone.orderId);
      expect([row.patient_name, row.pin, row.barcode, row.patient_details, Number(row.anonymised_at)]).toEqual([
        'Anonymised',
        null,
        '',
        null,
        t.deps.now(),
      ]);
      // The figures' fields stay.
      expect(row.status === 'collected' || row.status === 'cancelled').toBe(true);
      const message = await messageRow(t, gone.messageId);
      expect([message?.recipient, message?.body, message?.channel, message?.status]).toEqual([
        '',
        '',
        'sms',
        'success',
      ]);
    }
    for (const kept of [e.recent, e.stillLoaded, e.bNew]) {
      const row = await orderRow(t, kept.orderId);
      expect([row.anonymised_at, row.pin]).toEqual([null, '123456']);
      expect((await messageRow(t, kept.messageId))?.body).toContain('your order');
    }
    const patients = await t.db.selectFrom('patients').select(['id', 'full_name', 'erased_at', 'email']).execute();
    const erased = patients.filter((p) => p.erased_at !== null);
    expect(erased.map((p) => [p.id, p.full_name, p.email])).toEqual([[e.lapsed, 'Erased patient', null]]);
    expect(await ids(t, 'temperature_readings')).toBe(2);
    // The two younger events stay, and partners hear of the erasure.
    const events = await t.db.selectFrom('integration_events').select('type').orderBy('created').execute();
    expect(events.map((x) => x.type)).toEqual(['order.created', 'order.created', 'patient.erased']);
    expect(await ids(t, 'webhook_attempts')).toBe(2);
    expect(await messageRow(t, e.oldMail)).toBeUndefined();
    expect(await messageRow(t, e.newMail)).toBeDefined();
    const entries = await listAudit(t.db, 'test.entry');
    expect(entries.map((x) => t.deps.now() - x.at).sort((x, y) => x - y)).toEqual([10 * DAY, 2000 * DAY]);
    // The monthly figures stay.
    const month = await t.db.selectFrom('monthly_business_stats').selectAll().where('business_id', '=', e.a).execute();
    expect(month.map((m) => [m.orders_added, m.orders_collected])).toEqual([[7, 5]]);
    // The run reports its counts in the audit log; the erasure says why, without the erased data.
    const [run] = await listAudit(t.db, 'retention.apply');
    expect(run?.details).toEqual(expected);
    const [erasure] = await listAudit(t.db, 'patient.erase');
    expect(erasure).toMatchObject({
      entityId: e.lapsed,
      actorDisplay: 'system: retention.apply',
      // Its order was anonymised by the order step before.
      details: { reason: 'retention', ordersAnonymised: 0 },
    });
    expect(JSON.stringify(erasure)).not.toContain('Lapsed');

    const after = await t.call('dataProtection', 'getRetentionPolicy', {}, await support());
    expect(after.body.preview).toEqual({
      orders: 0,
      patients: 0,
      temperatureReadings: 0,
      auditEntries: 0,
      deliveries: 0,
    });
    expect(await applyRetention(t.deps)).toEqual(after.body.preview);
  });

  it('works through more rows than one batch holds, a short transaction each', async () => {
    const now = t.deps.now();
    const a = await estateBusiness(t.db);
    const patient = await estatePatient(t.db, a, now - YEAR);
    for (let i = 0; i < 7; i++) await estateOrder(t.db, a, patient, { created: now - 800 * DAY - i });
    await estateReadings(
      t.db,
      a,
      [1, 2, 3, 4, 5, 6, 7].map((i) => now - 800 * DAY - i),
    );
    await estateAudit(
      t.db,
      a,
      [1, 2, 3, 4, 5].map((i) => now - 2500 * DAY - i),
    );
    const done = await applyRetention(t.deps, 2);
    expect(done).toMatchObject({ orders: 7, temperatureReadings: 7, auditEntries: 5 });
    const left = await t.call('dataProtection', 'getBusinessRetention', { businessId: a }, await support());
    expect(left.body.preview).toEqual({
      orders: 0,
      patients: 0,
      temperatureReadings: 0,
      auditEntries: 0,
      deliveries: 0,
    });
  });

  it('keeps the audit log append-only: no update, no delete without a limit, none younger than a year', async () => {
    const now = t.deps.now();
    await estateAudit(t.db, null, [now - 3 * YEAR, now - 100 * DAY]);
    const refused = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => null,
        (e: unknown) => String(e),
      );
      expect(error).toContain('audit_log is append-only');
    };
    await refused(() => sql`delete from audit_log where action = 'test.entry'`.execute(t.db));
    await refused(() => sql`update audit_log set action = 'changed'`.execute(t.db));
    // A limit younger than a year by the database's clock deletes nothing, whatever the app asks.
    await refused(() =>
      t.db.transaction().execute(async (tx) => {
        await sql`select set_config('medlocker.audit_purge_before', ${String(Date.now())}, true)`.execute(tx);
        await sql`delete from audit_log where action = 'test.entry'`.execute(tx);
      }),
    );
    // A limit of two years: the entry older than it may go, the younger one not.
    const limit = String(Date.now() - 2 * YEAR);
    await t.db.transaction().execute(async (tx) => {
      await sql`select set_config('medlocker.audit_purge_before', ${limit}, true)`.execute(tx);
      await sql`delete from audit_log where action = 'test.entry' and at < ${limit}`.execute(tx);
    });
    await refused(() =>
      t.db.transaction().execute(async (tx) => {
        await sql`select set_config('medlocker.audit_purge_before', ${limit}, true)`.execute(tx);
        await sql`delete from audit_log where action = 'test.entry'`.execute(tx);
      }),
    );
    // The setting ends with its transaction.
    await refused(() => sql`delete from audit_log where action = 'test.entry'`.execute(t.db));
    expect((await listAudit(t.db, 'test.entry')).length).toBe(1);
  });

  it('sets the product policy within its bounds (400 naming the field, nothing changed) and audits it', async () => {
    const set = await t.call(
      'dataProtection',
      'updateRetentionPolicy',
      { orderDays: 365, auditDays: 3000 },
      await support(),
    );
    expect(set.status).toBe(200);
    expect(set.body.policy).toEqual({
      orderDays: 365,
      patientYears: 3,
      temperatureDays: 730,
      auditDays: 3000,
      deliveryDays: 90,
    });
    const [entry] = await listAudit(t.db, 'retention.update');
    expect(entry?.details).toEqual({
      fields: ['orderDays', 'auditDays'],
      from: { orderDays: 730, auditDays: 2190 },
      to: { orderDays: 365, auditDays: 3000 },
    });
    for (const [field, value, message] of [
      ['orderDays', 29, 'Invalid range, value must be an integer between 30 and 3650'],
      ['auditDays', 364, 'Invalid range, value must be an integer between 365 and 7300'],
      ['patientYears', 1.5, 'Invalid range, value must be an integer between 1 and 20'],
      ['deliveryDays', 'soon', 'Invalid range, value must be an integer between 7 and 730'],
    ] as const) {
      const res = await t.call('dataProtection', 'updateRetentionPolicy', { [field]: value }, await support());
      expect([res.status, res.body.error?.details?.[0]?.path, res.body.error?.details?.[0]?.message]).toEqual([
        400,
        field,
        message,
      ]);
    }
    const read = await t.call('dataProtection', 'getRetentionPolicy', {}, await support());
    expect(read.body.policy.orderDays).toBe(365);
  });

  it('lets a business Admin override the policy for their business within the bounds, and no one else', async () => {
    const a = await estateBusiness(t.db);
    const other = await estateBusiness(t.db);
    const admin = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: a, accessLevels: ['Admin'] }],
    });
    const user = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: a }] });
    const set = await t.call(
      'dataProtection',
      'updateBusinessRetention',
      { businessId: a, temperatureDays: 365 },
      admin,
    );
    expect(set.status).toBe(200);
    expect(set.body.overrides.temperatureDays).toBe(365);
    expect(set.body.effective).toEqual({
      orderDays: 730,
      patientYears: 3,
      temperatureDays: 365,
      auditDays: 2190,
      deliveryDays: 90,
    });
    const back = await t.call(
      'dataProtection',
      'updateBusinessRetention',
      { businessId: a, temperatureDays: null },
      admin,
    );
    expect(back.body.effective.temperatureDays).toBe(730);
    expect((await t.call('dataProtection', 'getBusinessRetention', { businessId: a }, user)).status).toBe(200);
    expect(
      (await t.call('dataProtection', 'updateBusinessRetention', { businessId: a, orderDays: 60 }, user)).status,
    ).toBe(403);
    expect(
      (await t.call('dataProtection', 'updateBusinessRetention', { businessId: other, orderDays: 60 }, admin)).status,
    ).toBe(404);
    const bad = await t.call('dataProtection', 'updateBusinessRetention', { businessId: a, orderDays: 5000 }, admin);
    expect([bad.status, bad.body.error?.details?.[0]?.path]).toEqual([400, 'orderDays']);
    expect((await listAudit(t.db, 'retention.business.update')).length).toBe(2);
    expect((await t.call('dataProtection', 'getRetentionPolicy', {}, admin)).status).toBe(403);
  });
});
