import { expect, it } from 'bun:test';
import { auditColumns, auditExportMax } from '@medlocker/core';
import { sql } from 'kysely';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';

type As = { cookie: string };

/** A business with a patient, a machine and an order, made by support. */
async function estate(t: TestApi, as: As) {
  const businessId = await insertBusiness(t.db);
  const patient = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
  const machine = await t.call('machines', 'createMachine', { businessId, name: 'Locker 1', numberOfSlots: 12 }, as);
  const patientId = patient.body.patient.id as string;
  const order = await t.call(
    'orders',
    'create',
    { businessId, patientId, machineId: machine.body.machine.id, barcode: 'RX-1' },
    as,
  );
  return { businessId, patientId, orderId: order.body.order.id as string };
}

const admin = (t: TestApi, businessId: string, accessLevels = ['Admin']) =>
  t.signIn({
    givenName: 'Pat',
    familyName: 'Pharmacist',
    roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels }],
  });

describeApi('audit trail', (t) => {
  const support = async (): Promise<As> => ({
    cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie,
  });

  it("finds by patient the entries about the patient and about the patient's orders, newest first", async () => {
    const as = await support();
    const a = await estate(t, as);
    const b = await estate(t, as);
    t.advance(1000);
    await t.call('patients', 'get', { id: a.patientId }, as);
    t.advance(1000);
    await t.call('orders', 'get', { id: a.orderId }, as);
    await t.call('orders', 'get', { id: b.orderId }, as);
    const res = await t.call('audit', 'search', { patientId: a.patientId }, as);
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e) => e.action)).toEqual([
      'order.read',
      'patient.read',
      'order.create',
      'patient.create',
    ]);
    expect(res.body.entries[0]).toMatchObject({
      actorDisplay: 'Sam Support',
      entityType: 'order',
      entityId: a.orderId,
      businessId: a.businessId,
      patientId: a.patientId,
    });
    const byOrder = await t.call('audit', 'search', { orderId: b.orderId }, as);
    expect(byOrder.body.entries.map((e) => e.action)).toEqual(['order.read', 'order.create']);
  });

  it('filters by user, business, action and time, and pages by next token without repeating an entry', async () => {
    const as = await support();
    const a = await estate(t, as);
    const other = await t.signIn({ support: true, givenName: 'Olga', familyName: 'Other' });
    const t1 = t.deps.now();
    for (let i = 0; i < 60; i++) {
      t.advance(10);
      await t.call('patients', 'get', { id: a.patientId }, i % 2 ? as : { cookie: other.cookie });
    }
    const mine = await t.call('audit', 'search', { userId: other.userId, action: 'patient.read' }, as);
    expect(mine.body.entries).toHaveLength(30);
    expect(mine.body.entries.every((e) => e.actorUserId === other.userId)).toBe(true);
    const first = await t.call('audit', 'search', { businessId: a.businessId, action: 'patient.read' }, as);
    expect(first.body.entries).toHaveLength(50);
    const second = await t.call(
      'audit',
      'search',
      { businessId: a.businessId, action: 'patient.read', nextToken: first.body.nextToken },
      as,
    );
    expect(second.body.entries).toHaveLength(10);
    expect(second.body.nextToken).toBeNull();
    const ids = [...first.body.entries, ...second.body.entries].map((e) => e.id);
    expect(new Set(ids).size).toBe(60);
    const window = await t.call('audit', 'search', { action: 'patient.read', since: t1 + 105, until: t1 + 205 }, as);
    expect(window.body.entries.map((e) => e.at - t1)).toEqual([200, 190, 180, 170, 160, 150, 140, 130, 120, 110]);
  });

  it('shows a pharmacy Admin only their businesses entries, never support entries about no business', async () => {
    const as = await support();
    const a = await estate(t, as);
    const b = await estate(t, as);
    await t.call('users', 'getUser', { id: (await t.createUser()).userId }, as);
    const pharmacist = await admin(t, a.businessId);
    const res = await t.call('audit', 'search', {}, { cookie: pharmacist.cookie });
    expect(res.status).toBe(200);
    expect(res.body.entries.length).toBeGreaterThan(0);
    expect(res.body.entries.every((e) => e.businessId === a.businessId)).toBe(true);
    const theirs = await t.call('audit', 'search', { businessId: b.businessId }, { cookie: pharmacist.cookie });
    expect(theirs.status).toBe(404);
    const byPatient = await t.call('audit', 'search', { patientId: b.patientId }, { cookie: pharmacist.cookie });
    expect(byPatient.body.entries).toEqual([]);
    const staff = await admin(t, a.businessId, ['Staff']);
    const refused = await t.call('audit', 'search', {}, { cookie: staff.cookie });
    expect(refused.status).toBe(403);
  });

  it('merges the pages of several businesses newest first for an Admin of each', async () => {
    const as = await support();
    const a = await estate(t, as);
    t.advance(5);
    const b = await estate(t, as);
    const pharmacist = await t.signIn({
      roles: [a, b].map((e) => ({
        name: 'Business' as const,
        resourceType: 'business' as const,
        resourceId: e.businessId,
        accessLevels: ['Admin'],
      })),
    });
    const res = await t.call('audit', 'search', {}, { cookie: pharmacist.cookie });
    const businesses = res.body.entries.map((e) => e.businessId);
    expect(new Set(businesses)).toEqual(new Set([a.businessId, b.businessId]));
    const ats = res.body.entries.map((e) => e.at);
    expect(ats).toEqual([...ats].sort((x, y) => y - x));
  });

  it('audits each search and export of the trail, without naming the patient searched for', async () => {
    const as = await support();
    const a = await estate(t, as);
    await t.call('audit', 'search', { patientId: a.patientId }, as);
    const [entry] = await listAudit(t.db, 'audit.search');
    expect(entry?.details).toEqual({ filters: { patientId: a.patientId }, shown: 2 });
    const row = await t.db
      .selectFrom('audit_log')
      .select('patient_id')
      .where('action', '=', 'audit.search')
      .executeTakeFirst();
    expect(row?.patient_id).toBeNull();
    const exported = await t.call('audit', 'export', { patientId: a.patientId }, as);
    expect(exported.status).toBe(200);
    expect(exported.body.entries).toBe(2);
    const lines = exported.body.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(auditColumns.map((c) => `"${c}"`).join(','));
    expect(lines[1]).toContain('"Order created"');
    expect(await listAudit(t.db, 'audit.export')).toHaveLength(1);
  });

  it('refuses bad filters with a 400 naming the field, and an export matching too many entries', async () => {
    const as = await support();
    const until = await t.call('audit', 'search', { since: 2000, until: 1000 }, as);
    expect(until.status).toBe(400);
    expect(until.body.error.details[0]).toMatchObject({ path: 'until', id: 'INVALID_RANGE' });
    const token = await t.call('audit', 'search', { nextToken: 'not-a-token' }, as);
    expect(token.status).toBe(400);
    expect(token.body.error.details[0].path).toBe('nextToken');
    const since = await t.call('audit', 'search', { since: -1 }, as);
    expect(since.status).toBe(400);
    const unknown = await t.call('audit', 'search', { patient: 'x' }, as);
    expect(unknown.status).toBe(400);
    await sql`insert into audit_log (id, at, action, entity_type)
      select 'x' || lpad(n::text, 6, '0'), n, 'bulk', 'test' from generate_series(1, ${auditExportMax + 1}) n`.execute(
      t.db,
    );
    const tooMany = await t.call('audit', 'export', { action: 'bulk' }, as);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0]).toMatchObject({ path: 'since', id: 'TOO_MANY_RECORDS' });
  });
});
