import { expect, it } from 'bun:test';
import { formatLongDate, formatTime } from '@medlocker/core';
import { jobHandlers, jobSchedules } from '../../job-handlers.ts';
import { createRunner } from '../../jobs/runner.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { recordExpiredOrders, sendExpiryReminders } from './expiry.ts';
import { loadOrder } from './locker-service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type As = { cookie: string };

/** A business with a patient and two machines; orders are loaded as the machine hub loads them. */
async function estate(t: TestApi) {
  const as: As = { cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie };
  const businessId = await insertBusiness(t.db);
  const ok = async <T>(p: Promise<{ status: number; body: T }>) => {
    const res = await p;
    if (res.status !== 200) throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const patient = await ok(t.call('patients', 'create', { businessId, patient: testPatient(1) }, as));
  const machine = async (name: string) =>
    (await ok(t.call('machines', 'createMachine', { businessId, name, numberOfSlots: 12 }, as))).machine.id as string;
  const m1 = await machine('Front');
  const m2 = await machine('Back');
  let barcodes = 0;
  const order = async (extra: Record<string, unknown> = {}) =>
    (
      await ok(
        t.call(
          'orders',
          'create',
          { businessId, patientId: patient.patient.id, barcode: `RX-${++barcodes}`, ...extra },
          as,
        ),
      )
    ).order.id as string;
  const load = (orderId: string, machineId = m1, location = 'A1') =>
    t.db
      .transaction()
      .execute((tx) =>
        loadOrder(
          tx,
          t.deps,
          { kind: 'locker', machineId, businessId, origin: { via: 'test', requestId: 'r', ip: null, userAgent: null } },
          orderId,
          { location },
        ),
      );
  const outbox = (orderId: string) =>
    t.db
      .selectFrom('message_outbox')
      .select(['template_key', 'body', 'recipient', 'channel'])
      .where('order_id', '=', orderId)
      .orderBy('created')
      .orderBy('id')
      .execute();
  const keys = async (orderId: string) => (await outbox(orderId)).map((m) => m.template_key);
  // Read straight from the table: the test clock moves days on, past any session's life.
  const events = async (orderId: string) =>
    (
      await t.db
        .selectFrom('order_events')
        .select(['code', 'message'])
        .where('order_id', '=', orderId)
        .orderBy('created')
        .orderBy('id')
        .execute()
    ).map((e) => `${e.code}: ${e.message}`);
  /** A new support session (after the clock moved on). */
  const staff = async (): Promise<As> => ({ cookie: (await t.signIn({ support: true })).cookie });
  return {
    as,
    staff,
    businessId,
    patientId: patient.patient.id as string,
    m1,
    m2,
    order,
    load,
    outbox,
    keys,
    events,
    ok,
  };
}

const expires = (at: number) => `${formatLongDate(at)} at ${formatTime(at, { seconds: false })}`;

describeApi('patient messages of an order', (t) => {
  it('tells the patient the order is ready once, and payment is required instead while charges are unpaid', async () => {
    const e = await estate(t);
    const a = await e.order();
    await e.load(a);
    await e.load(a, e.m1, 'A1');
    expect(await e.outbox(a)).toEqual([
      {
        template_key: 'orderReady',
        body: `Your order from ${(await t.db.selectFrom('businesses').select('name').executeTakeFirstOrThrow()).name} is ready at Front. PIN: \${pin}. Please collect by ${expires(t.deps.now() + 2 * DAY)}.`,
        recipient: '+447700900001',
        channel: 'sms',
      },
    ]);
    // As a patient reads it: the London date and time to the minute (loaded at T0 + 2 days' window).
    expect((await e.outbox(a))[0]?.body).toEndWith('Please collect by 04 November 2026 at 09:30.');

    await t.db
      .insertInto('business_feature_settings')
      .values({ business_id: e.businessId, settings: JSON.stringify({ charges: { enabled: true } }), updated: 1 })
      .execute();
    await t.db.updateTable('machines').set({ payments_enabled: true }).where('id', '=', e.m2).execute();
    const unpaid = await e.order({ prescriptionCharge: '9.90' });
    await e.load(unpaid, e.m2);
    const [message] = await e.outbox(unpaid);
    expect(message?.template_key).toBe('paymentRequired');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sender fills the link in.
    expect(message?.body).toContain('Pay here: ${portal}');
    // The same charge at a machine that takes no payment: the PIN works, so order ready.
    const atCounter = await e.order({ prescriptionCharge: '9.90' });
    await e.load(atCounter, e.m1, 'B2');
    expect(await e.keys(atCounter)).toEqual(['orderReady']);
  });

  it('fills every SPEC §9 placeholder a business words its template with, the postcode its own', async () => {
    const e = await estate(t);
    await t.db.updateTable('businesses').set({ postcode: 'SW1A 1AA' }).where('id', '=', e.businessId).execute();
    const saved = await t.call(
      'businessSettings',
      'updateBusinessSmsTemplates',
      {
        businessId: e.businessId,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders as staff write them.
        templates: { orderReady: 'Ready at ${machineAndBusiness} (${postcode}). PIN ${pin} by ${expires}.' },
      },
      e.as,
    );
    expect(saved.status).toBe(200);
    const a = await e.order();
    await e.load(a);
    const [message] = await e.outbox(a);
    expect(message?.body).toBe(
      `Ready at Front at ${(await t.db.selectFrom('businesses').select('name').executeTakeFirstOrThrow()).name} (SW1A 1AA). PIN \${pin} by 04 November 2026 at 09:30.`,
    );
  });

  it('sends order updated when the order moves machine, not when the bag only changes slot', async () => {
    const e = await estate(t);
    const a = await e.order();
    await e.load(a, e.m1, 'A1');
    await e.load(a, e.m1, 'A2');
    expect(await e.keys(a)).toEqual(['orderReady']);
    await e.load(a, e.m2, 'C3');
    await e.load(a, e.m1, 'A4');
    const sent = await e.outbox(a);
    expect(sent.map((m) => m.template_key)).toEqual(['orderReady', 'orderUpdated', 'orderUpdated']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sender fills the PIN in.
    expect(sent[1]?.body).toContain('New PIN: ${pin}. Please collect by');
    expect(sent[1]?.body).toContain(expires(t.deps.now() + 2 * DAY));
    // Expired: moving it tells the patient nothing more.
    t.advance(2 * DAY);
    await e.load(a, e.m2, 'C4');
    expect(await e.keys(a)).toHaveLength(3);
  });

  it('tells the patient of a cancelled order they had been told about, and nobody else', async () => {
    const e = await estate(t);
    const loaded = await e.order();
    const fresh = await e.order();
    const late = await e.order();
    await e.load(loaded);
    await e.load(late, e.m1, 'B1');
    for (const id of [loaded, fresh]) {
      expect((await t.call('orders', 'cancel', { id, reason: 'Prescription changed' }, e.as)).status).toBe(200);
    }
    const cancelled = await e.outbox(loaded);
    expect(cancelled.map((m) => m.template_key)).toEqual(['orderReady', 'orderCancelled']);
    expect(cancelled[1]?.body).toMatch(
      /^Your order at Front at Pharmacy \w+ has been cancelled and its PIN no longer works/,
    );
    expect(cancelled[1]?.body.length).toBeLessThanOrEqual(160);
    expect(await e.keys(fresh)).toEqual([]);
    // Expired first: the patient was told that; a later cancel sends nothing more.
    t.advance(2 * DAY);
    await recordExpiredOrders(t.deps);
    expect((await t.call('orders', 'cancel', { id: late, reason: 'Not collected' }, await e.staff())).status).toBe(200);
    expect(await e.keys(late)).toEqual(['orderReady', 'orderExpired']);
  });

  it('records each expiry once on the job runner and tells the patient once', async () => {
    const e = await estate(t);
    const a = await e.order();
    await e.load(a);
    const expiresAt = t.deps.now() + 2 * DAY;
    const runner = createRunner({
      db: t.db,
      logger: t.deps.logger,
      now: t.deps.now,
      handlers: jobHandlers(t.deps),
      schedules: jobSchedules,
    });
    const pass = async () => {
      await runner.tick();
      await runner.idle();
    };
    await pass();
    t.advance(2 * DAY + 60_000);
    // The minute's schedule queues the sweep, the sweep queues the message, the sender sends it.
    await pass();
    await pass();
    await pass();
    t.advance(60_000);
    await pass();
    await pass();
    const sent = await e.outbox(a);
    expect(sent.map((m) => m.template_key)).toEqual(['orderReady', 'orderExpired']);
    expect(sent[1]?.body).toMatch(
      new RegExp(
        `^Your order from Pharmacy \\w+ was not collected by ${expires(expiresAt)}, so its PIN no longer works`,
      ),
    );
    const timeline = await e.events(a);
    expect(timeline.filter((x: string) => x.startsWith('ORDER_EXPIRED'))).toHaveLength(1);
    // Every message queued ends as an event on the timeline once sent (the local gateway in tests).
    expect(timeline.filter((x: string) => x.startsWith('MESSAGE_SENT: SMS sent to 07••• •••001'))).toHaveLength(2);
    const done = await t.db.selectFrom('jobs').select('type').where('type', '=', 'orders.recordExpired').execute();
    expect(done.length).toBeGreaterThanOrEqual(1);
    await runner.stop(100);
  });

  it('does not send a ready message whose order was cancelled before the sender got to it, and says so', async () => {
    const e = await estate(t);
    const a = await e.order();
    await e.load(a);
    expect((await t.call('orders', 'cancel', { id: a, reason: 'Wrong bag' }, e.as)).status).toBe(200);
    const runner = createRunner({ db: t.db, logger: t.deps.logger, now: t.deps.now, handlers: jobHandlers(t.deps) });
    await runner.tick();
    await runner.idle();
    await runner.stop(100);
    const sent = await t.db
      .selectFrom('message_outbox')
      .select(['template_key', 'status', 'last_error'])
      .where('order_id', '=', a)
      .orderBy('created')
      .orderBy('id')
      .execute();
    expect(sent).toEqual([
      {
        template_key: 'orderReady',
        status: 'failed',
        last_error: 'No message sent: the order was cancelled before the order ready message went',
      },
      { template_key: 'orderCancelled', status: 'success', last_error: null },
    ]);
    const timeline = await e.events(a);
    expect(timeline).toContain(
      'MESSAGE_SUPPRESSED: No message sent: the order was cancelled before the order ready message went',
    );
    expect(timeline.filter((x) => x.startsWith('MESSAGE_SENT'))).toHaveLength(1);
  });

  it('reminds a day before expiry once per expiry, half-way through a one-day window, never after it', async () => {
    const e = await estate(t);
    const twoDays = await e.order();
    const oneDay = await e.order({ collectionWindow: 1 });
    await e.load(twoDays, e.m1, 'A1');
    await e.load(oneDay, e.m1, 'A2');
    const twoDaysExpiry = t.deps.now() + 2 * DAY;
    // Right after load: the one-day order expires within 24 h, but a reminder now would come with its ready message.
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    t.advance(12 * HOUR - 60_000);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    t.advance(60_000);
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    expect(await e.keys(oneDay)).toEqual(['orderReady', 'orderExpiring']);
    t.advance(12 * HOUR - 60_000);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    t.advance(60_000);
    const twice = await Promise.all([sendExpiryReminders(t.deps), sendExpiryReminders(t.deps)]);
    expect(twice[0] + twice[1]).toBe(1);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    const reminders = await e.outbox(twoDays);
    expect(reminders.map((m) => m.template_key)).toEqual(['orderReady', 'orderExpiring']);
    expect(reminders[1]?.body).toBe(
      `Your order at Front at Pharmacy ${e.businessId.slice(-6)} is still waiting. Please collect it by ${expires(twoDaysExpiry)}.`,
    );
    // A new expiry (the window extended) is reminded again; an expired order never.
    await t.db
      .updateTable('orders')
      .set({ expires_at: twoDaysExpiry + 6 * HOUR })
      .where('id', '=', twoDays)
      .execute();
    t.advance(6 * HOUR);
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    expect(await e.keys(twoDays)).toEqual(['orderReady', 'orderExpiring', 'orderExpiring']);
    expect(await e.keys(oneDay)).toEqual(['orderReady', 'orderExpiring']);
  });

  it('sends no reminder when the business turned reminders off', async () => {
    const e = await estate(t);
    await t.db
      .insertInto('business_feature_settings')
      .values({ business_id: e.businessId, settings: JSON.stringify({ sendOrderExpiringSms: false }), updated: 1 })
      .execute();
    const a = await e.order();
    await e.load(a);
    t.advance(DAY);
    expect(await sendExpiryReminders(t.deps)).toBe(1);
    expect(await sendExpiryReminders(t.deps)).toBe(0);
    expect(await e.keys(a)).toEqual(['orderReady']);
  });

  it('sends nothing for a suppressed order or a business whose partner sends its messages, and says why', async () => {
    const e = await estate(t);
    const quiet = await e.order();
    await t.db.updateTable('orders').set({ messages_suppressed: true }).where('id', '=', quiet).execute();
    await e.load(quiet);
    expect(await e.keys(quiet)).toEqual([]);
    expect(await e.events(quiet)).toContain(
      'MESSAGE_SUPPRESSED: No message sent: messages are suppressed for this order',
    );

    const client = await t.call(
      'integration',
      'createOrUpdateIntegrationClient',
      {
        businessId: e.businessId,
        name: 'Example PMR',
        contactEmail: 'support@pmr.example',
        suppressPatientMessages: true,
        webhookUrl: 'https://pmr.example/hooks',
        rateLimit: 1200,
      },
      e.as,
    );
    expect(client.status).toBe(200);
    const a = await e.order();
    await e.load(a);
    t.advance(DAY);
    await sendExpiryReminders(t.deps);
    t.advance(DAY);
    await recordExpiredOrders(t.deps);
    expect(await e.keys(a)).toEqual([]);
    const why = "MESSAGE_SUPPRESSED: No message sent: Example PMR sends this business's patient messages";
    expect((await e.events(a)).filter((x: string) => x === why)).toHaveLength(3);
  });
});
