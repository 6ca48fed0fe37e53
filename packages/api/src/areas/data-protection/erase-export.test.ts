import { expect, it } from 'bun:test';
import { unzipSync } from 'fflate';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { DAY, estateBusiness, estateClient, estateOrder, estatePatient } from '../../testing/estate.ts';

/** A business with an integration client, a patient with two finished orders (one exempt, one whose PIN was revealed). */
async function patientWithHistory(t: TestApi) {
  const now = t.deps.now();
  const businessId = await estateBusiness(t.db);
  await estateClient(t.db, businessId);
  const patientId = await estatePatient(t.db, businessId, now - 400 * DAY, 'Grace Hopper');
  const exempt = await estateOrder(t.db, businessId, patientId, { created: now - 30 * DAY, exemption: true });
  const revealed = await estateOrder(t.db, businessId, patientId, { created: now - 10 * DAY, pinRevealed: true });
  await t.db
    .insertInto('payment_attempts')
    .values({
      id: 'pay-1',
      business_id: businessId,
      order_id: revealed.orderId,
      your_payment_reference: 'yp-1',
      your_consumer_reference: patientId,
      amount: 990,
      currency: 'GBP',
      judo_id: '100200300',
      status: 'succeeded',
      created: now - 10 * DAY,
      updated: now - 10 * DAY,
    })
    .execute();
  await t.db
    .insertInto('patient_sessions')
    .values({
      id: 'ps-1',
      token_hash: 'secret-hash',
      business_id: businessId,
      patient_id: patientId,
      order_id: revealed.orderId,
      method: 'dateOfBirth',
      created: now - 10 * DAY,
      expires_at: now + DAY,
      idle_expires_at: now + DAY,
      last_seen: now - 10 * DAY,
      ip: '203.0.113.7',
      user_agent: 'Firefox',
    })
    .execute();
  return { businessId, patientId, exempt, revealed };
}

const admin = (t: TestApi, businessId: string) =>
  t.signIn({
    roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] }],
  });

describeApi('erasing a patient and a patient’s data', (t) => {
  it('erases a patient for a business Admin: personal fields gone, orders anonymised, audited without the data, partners told', async () => {
    const h = await patientWithHistory(t);
    // A message still waiting to be sent: failed, never sent emptied.
    await t.db
      .insertInto('message_outbox')
      .values({
        id: 'waiting-1',
        business_id: h.businessId,
        patient_id: h.patientId,
        channel: 'email',
        recipient: 'grace@example.com',
        template_key: 'optIn',
        body: 'Hello Grace Hopper',
        next_attempt_at: t.deps.now(),
        created: t.deps.now(),
        updated: t.deps.now(),
      })
      .execute();
    const me = await admin(t, h.businessId);
    const res = await t.call('dataProtection', 'erasePatient', { patientId: h.patientId }, me);
    expect(res.body).toEqual({ patientId: h.patientId, erasedAt: t.deps.now(), ordersAnonymised: 2 });
    const p = await t.db.selectFrom('patients').selectAll().where('id', '=', h.patientId).executeTakeFirstOrThrow();
    expect([p.full_name, p.given_name, p.email, p.mobile_number, p.date_of_birth, p.address_line1, p.postcode]).toEqual(
      ['Erased patient', '', null, null, null, null, null],
    );
    expect(Number(p.deleted_at)).toBe(t.deps.now());
    const orders = await t.db.selectFrom('orders').selectAll().where('patient_id', '=', h.patientId).execute();
    expect(orders.map((o) => [o.patient_name, o.exemption_details, o.pin_reveal_reason, o.status])).toEqual([
      ['Anonymised', null, null, 'collected'],
      ['Anonymised', null, null, 'collected'],
    ]);
    // The figures keep what they count: the exemption's code and the payment's amount.
    expect(orders.map((o) => o.exemption_code)).toEqual(['E', null]);
    const payment = await t.db.selectFrom('payment_attempts').selectAll().executeTakeFirstOrThrow();
    expect([payment.amount, payment.your_consumer_reference]).toEqual([990, '']);
    const messages = await t.db
      .selectFrom('message_outbox')
      .selectAll()
      .where('patient_id', '=', h.patientId)
      .execute();
    expect(messages.map((m) => [m.recipient, m.body, m.status]).sort()).toEqual([
      ['', '', 'failed'],
      ['', '', 'success'],
      ['', '', 'success'],
    ]);
    expect(await t.db.selectFrom('patient_sessions').selectAll().execute()).toEqual([]);
    const [entry] = await listAudit(t.db, 'patient.erase');
    expect(entry).toMatchObject({
      actorUserId: me.userId,
      entityId: h.patientId,
      details: { reason: 'request', ordersAnonymised: 2 },
    });
    expect(JSON.stringify(entry)).not.toContain('Grace');
    const event = await t.db
      .selectFrom('integration_events')
      .selectAll()
      .where('type', '=', 'patient.erased')
      .executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ patientId: h.patientId, reason: 'request' });
    // Once is enough.
    const again = await t.call('dataProtection', 'erasePatient', { patientId: h.patientId }, me);
    expect([again.status, again.body.error?.message]).toEqual([409, 'This patient has already been erased']);
  });

  it('refuses while an order waits to be loaded or is in a locker, and changes nothing', async () => {
    const h = await patientWithHistory(t);
    await estateOrder(t.db, h.businessId, h.patientId, { status: 'loaded', created: t.deps.now() - DAY });
    const support = await t.signIn({ support: true });
    const res = await t.call('dataProtection', 'erasePatient', { patientId: h.patientId }, support);
    expect([res.status, res.body.error?.details?.[0]?.path, res.body.error?.details?.[0]?.id]).toEqual([
      409,
      'patientId',
      'LIVE_ORDER',
    ]);
    const p = await t.db.selectFrom('patients').selectAll().where('id', '=', h.patientId).executeTakeFirstOrThrow();
    expect([p.full_name, p.erased_at]).toEqual(['Grace Hopper', null]);
    expect(await listAudit(t.db, 'patient.erase')).toEqual([]);
  });

  it('refuses a pharmacy user without Admin, and another business’s Admin', async () => {
    const h = await patientWithHistory(t);
    const user = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: h.businessId }] });
    expect((await t.call('dataProtection', 'erasePatient', { patientId: h.patientId }, user)).status).toBe(403);
    expect((await t.call('dataProtection', 'exportPatientData', { patientId: h.patientId }, user)).status).toBe(403);
    const other = await admin(t, await estateBusiness(t.db));
    expect((await t.call('dataProtection', 'erasePatient', { patientId: h.patientId }, other)).status).toBe(404);
  });

  it('answers a subject access request with one ZIP: a readable summary and JSON of everything held', async () => {
    const h = await patientWithHistory(t);
    const me = await admin(t, h.businessId);
    // An audit entry naming the patient (a read of the record).
    await t.call('patients', 'get', { id: h.patientId }, me);
    const res = await t.call('dataProtection', 'exportPatientData', { patientId: h.patientId }, me);
    expect(res.status).toBe(200);
    expect(res.body.fileName).toBe(`patient-data-${h.patientId}-2026-11-02.zip`);
    const files = unzipSync(Buffer.from(res.body.data, 'base64'));
    expect(Object.keys(files).sort()).toEqual(['data.json', 'summary.html']);
    const json = JSON.parse(new TextDecoder().decode(files['data.json']));
    expect(json.patient).toMatchObject({
      id: h.patientId,
      fullName: 'Grace Hopper',
      email: `${h.patientId}@example.com`,
    });
    // The database's bookkeeping is no information about the patient.
    expect(Object.keys(json.patient)).not.toContain('importDigest');
    expect(Object.keys(json.patient)).not.toContain('searchPending');
    expect(json.orders.map((o: { reference: string }) => o.reference)).toEqual([
      h.exempt.reference,
      h.revealed.reference,
    ]);
    expect(json.orders[0].events.length).toBe(1);
    expect(json.orders[1].payments).toMatchObject([{ amount: 990, status: 'succeeded' }]);
    expect(json.declarations).toMatchObject([{ reference: h.exempt.reference, exemptionCode: 'E' }]);
    expect(json.pinReveals).toMatchObject([
      { reference: h.revealed.reference, revealedBy: 'Pat Pharmacist', reason: 'Patient rang' },
    ]);
    expect(json.messages.length).toBe(2);
    expect(json.messages[0].body).toContain('Grace Hopper');
    expect(json.sessions).toMatchObject([{ ip: '203.0.113.7', userAgent: 'Firefox' }]);
    expect(json.auditEntries.map((a: { action: string }) => a.action)).toContain('patient.read');
    // Never a PIN nor a hash.
    const text = new TextDecoder().decode(files['data.json']);
    expect(text).not.toContain('123456');
    expect(text).not.toContain('secret-hash');
    const html = new TextDecoder().decode(files['summary.html']);
    expect(html).toContain('<h1>Data held about Grace Hopper</h1>');
    expect(html).toContain('PIN reveals');
    expect(html).toContain('Patient rang');
    const [entry] = await listAudit(t.db, 'patient.export');
    expect(entry).toMatchObject({ actorUserId: me.userId, entityId: h.patientId, details: { orders: 2, messages: 2 } });
  });
});
