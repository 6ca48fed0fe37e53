import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { loadOrder } from '../orders/locker-service.ts';

const HOUR = 3_600_000;

type As = { cookie: string };

/** A business with a patient, a machine and a loaded order, and a pharmacy user of it. */
async function estate(t: TestApi, as: As) {
  const businessId = await insertBusiness(t.db);
  const patient = (await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as)).body.patient;
  const machineId = (await t.call('machines', 'createMachine', { businessId, name: 'Front', numberOfSlots: 12 }, as))
    .body.machine.id as string;
  let n = 0;
  const order = async (loaded = true) => {
    const created = await t.call('orders', 'create', { businessId, patientId: patient.id, barcode: `RX-${++n}` }, as);
    expect(created.status).toBe(200);
    const id = created.body.order.id as string;
    if (loaded) {
      await t.db.transaction().execute((tx) =>
        loadOrder(
          tx,
          t.deps,
          {
            kind: 'locker',
            machineId,
            businessId,
            origin: { via: 'test', requestId: 'r', ip: null, userAgent: null },
          },
          id,
          { location: `A${n}` },
        ),
      );
    }
    return id;
  };
  const pharmacy = {
    cookie: (
      await t.signIn({
        givenName: 'Pat',
        familyName: 'Pharmacist',
        roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }],
      })
    ).cookie,
  };
  return { businessId, order, pharmacy };
}

const messages = (t: TestApi, orderId: string) =>
  t.db
    .selectFrom('message_outbox')
    .select(['template_key', 'recipient', 'dedupe_key'])
    .where('order_id', '=', orderId)
    .orderBy('created')
    .orderBy('id')
    .execute();

const timeline = async (t: TestApi, orderId: string) =>
  (
    await t.db
      .selectFrom('order_events')
      .select(['code', 'message'])
      .where('order_id', '=', orderId)
      .orderBy('created')
      .orderBy('id')
      .execute()
  ).map((e) => `${e.code}: ${e.message}`);

describeApi('staff asking for patient messages (patientOrders)', (t) => {
  const support = async (): Promise<As> => ({
    cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie,
  });

  it('sends the order-ready message again on each press, once for a double click, with who asked', async () => {
    const as = await support();
    const e = await estate(t, as);
    // Right after the load: the ready message the order sent by itself does not hold a press back.
    const id = await e.order();
    const first = await t.call('patientOrders', 'resendOrderReadyMessage', { orderId: id }, as);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      sent: true,
      message: 'Order ready message queued for 07••• •••001.',
      order: { id, status: 'loaded' },
    });
    const double = await t.call('patientOrders', 'resendOrderReadyMessage', { orderId: id }, as);
    expect(double.body).toMatchObject({
      sent: false,
      message: 'No message sent: the order ready message was queued 1 s ago.',
    });
    t.advance(10_000);
    const again = await t.call('patientOrders', 'resendOrderReadyMessage', { orderId: id }, e.pharmacy);
    expect(again.body.sent).toBe(true);
    expect((await messages(t, id)).map((m) => m.template_key)).toEqual(['orderReady', 'orderReady', 'orderReady']);
    const events = await timeline(t, id);
    expect(events.filter((x) => x.startsWith('MESSAGE_REQUESTED'))).toEqual([
      'MESSAGE_REQUESTED: Order ready message requested by Sam Support',
      'MESSAGE_REQUESTED: Order ready message requested by Pat Pharmacist',
    ]);
    const audit = await listAudit(t.db, 'order.resendMessage');
    expect(audit.map((a) => [a.entityId, a.details])).toEqual([
      [id, { templateKey: 'orderReady', sent: true }],
      [id, { templateKey: 'orderReady', sent: true }],
    ]);
  });

  it('sends the expiry reminder now, whatever the business setting, and it stands for the automatic one', async () => {
    const as = await support();
    const e = await estate(t, as);
    await t.db
      .insertInto('business_feature_settings')
      .values({ business_id: e.businessId, settings: JSON.stringify({ sendOrderExpiringSms: false }), updated: 1 })
      .execute();
    const id = await e.order();
    t.advance(30 * HOUR);
    const res = await t.call('patientOrders', 'sendOrderExpiryMessage', { orderId: id }, await support());
    expect(res.body).toMatchObject({ sent: true, message: 'Expiry reminder message queued for 07••• •••001.' });
    expect((await messages(t, id)).map((m) => m.template_key)).toEqual(['orderReady', 'orderExpiring']);
    const row = await t.db.selectFrom('orders').select(['expiry_reminded_for', 'expires_at']).executeTakeFirstOrThrow();
    expect(row.expiry_reminded_for).toBe(row.expires_at);
    expect(await timeline(t, id)).toContain('MESSAGE_REQUESTED: Expiry reminder message requested by Sam Support');
  });

  it('refuses an order that is not loaded, or expired, with 409 naming its state, and sends nothing', async () => {
    const as = await support();
    const e = await estate(t, as);
    const fresh = await e.order(false);
    const res = await t.call('patientOrders', 'resendOrderReadyMessage', { orderId: fresh }, as);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      409,
      'INVALID_TRANSITION',
      'This order is new: it cannot have its message sent again',
    ]);
    const loaded = await e.order();
    t.advance(2 * 24 * HOUR);
    const as2 = await support();
    const late = await t.call('patientOrders', 'sendOrderExpiryMessage', { orderId: loaded }, as2);
    expect([late.status, late.body.error.message]).toEqual([
      409,
      'This order is expired: it cannot be sent an expiry reminder',
    ]);
    expect(late.body.error.details).toEqual([{ path: 'status', id: 'INVALID_TRANSITION', message: 'expired' }]);
    expect(await messages(t, fresh)).toEqual([]);
    expect((await messages(t, loaded)).map((m) => m.template_key)).toEqual(['orderReady']);
  });

  it("answers 404 for an unknown order and for another business's order to a pharmacy user", async () => {
    const as = await support();
    const mine = await estate(t, as);
    const theirs = await estate(t, as);
    const theirOrder = await theirs.order();
    for (const method of ['resendOrderReadyMessage', 'sendOrderExpiryMessage'] as const) {
      const other = await t.call('patientOrders', method, { orderId: theirOrder }, mine.pharmacy);
      expect([method, other.status, other.body.error.code]).toEqual([method, 404, 'NOT_FOUND']);
      const unknown = await t.call('patientOrders', method, { orderId: 'no-such-order' }, as);
      expect([method, unknown.status]).toEqual([method, 404]);
    }
    expect((await messages(t, theirOrder)).map((m) => m.template_key)).toEqual(['orderReady']);
  });

  it('says nothing was sent when the order is suppressed, and the timeline says why and who asked', async () => {
    const as = await support();
    const e = await estate(t, as);
    const id = await e.order();
    await t.db.updateTable('orders').set({ messages_suppressed: true }).where('id', '=', id).execute();
    const res = await t.call('patientOrders', 'resendOrderReadyMessage', { orderId: id }, as);
    expect(res.body).toMatchObject({
      sent: false,
      message: 'No message sent: messages are suppressed for this order.',
    });
    const events = await t.call('orders', 'listEvents', { orderId: id }, as);
    const last = events.body.events.at(-1);
    expect(last).toMatchObject({
      code: 'MESSAGE_SUPPRESSED',
      message: 'No message sent: messages are suppressed for this order',
      data: { byName: 'Sam Support', templateKey: 'orderReady' },
    });
  });
});
