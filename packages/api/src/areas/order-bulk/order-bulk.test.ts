import { expect, it } from 'bun:test';
import { bulkOrdersMax, csvText, ordersCsvColumns } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, T0, type TestApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';

type As = { cookie: string };
const DAY = 86_400_000;

/** A business with a patient, a machine and `n` new orders (RX-1…), made as staff would. */
async function estate(t: TestApi, as: As, n: number) {
  const businessId = await insertBusiness(t.db);
  const patient = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
  const machine = await t.call('machines', 'createMachine', { businessId, name: 'Front', numberOfSlots: 40 }, as);
  const base = { businessId, patientId: patient.body.patient.id as string, machineId: machine.body.machine.id };
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) {
    const res = await t.call('orders', 'create', { ...base, barcode: `RX-${businessId.slice(-4)}-${i}` }, as);
    expect(res.status).toBe(200);
    ids.push(res.body.order.id);
  }
  return { businessId, ids };
}

/** Puts orders in a locker: loaded, expiring in `days` (negative: already expired). */
const load = (t: TestApi, ids: string[], days = 3) =>
  t.db
    .updateTable('orders')
    .set({ status: 'loaded', expires_at: T0 + days * DAY })
    .where('id', 'in', ids)
    .execute();

const statusOf = async (t: TestApi, id: string) =>
  (await t.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describeApi('many orders at once', (t) => {
  const support = async (): Promise<As> => ({ cookie: (await t.signIn({ support: true })).cookie });
  const pharmacyOf = async (businessId: string): Promise<As> => ({
    cookie: (await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }] }))
      .cookie,
  });

  it('cancels many orders with one reason, one event and audit entry each, and names the ones refused', async () => {
    const as = await support();
    const { ids } = await estate(t, as, 3);
    const [a, b, c] = ids as [string, string, string];
    await load(t, [b]);
    await t.db.updateTable('orders').set({ status: 'collected' }).where('id', '=', c).execute();
    const res = await t.call('orders', 'bulkUpdate', { ids: [a, b, c], action: 'cancel', reason: 'Duplicate' }, as);
    expect(res.status).toBe(200);
    expect(res.body.outcomes.map((o: { id: string; ok: boolean }) => [o.id, o.ok])).toEqual([
      [a, true],
      [b, true],
      [c, false],
    ]);
    expect(res.body.outcomes[2]).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'This order is collected: it cannot be cancelled',
    });
    expect([await statusOf(t, a), await statusOf(t, b), await statusOf(t, c)]).toEqual([
      'cancelled',
      'cancelled',
      'collected',
    ]);
    const events = await t.db
      .selectFrom('order_events')
      .select('order_id')
      .where('code', '=', 'ORDER_CANCELLED')
      .execute();
    expect(events.map((e) => e.order_id).sort()).toEqual([a, b].sort());
    const audited = (await listAudit(t.db, 'order.cancel')).map((e) => e.entityId);
    expect(audited.sort()).toEqual([a, b].sort());
  });

  it('refuses a cancel or a PIN hold without a reason, changing nothing', async () => {
    const as = await support();
    const { ids } = await estate(t, as, 1);
    for (const action of ['cancel', 'holdPin', 'releasePin']) {
      const res = await t.call('orders', 'bulkUpdate', { ids, action }, as);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'reason', id: 'REQUIRED', message: 'Please enter a value' }]);
    }
    expect(await statusOf(t, ids[0] as string)).toBe('new');
  });

  it('marks expired bags removed, resends ready messages, holds and releases PINs, order by order', async () => {
    const as = await support();
    const { ids } = await estate(t, as, 3);
    const [expired, live, fresh] = ids as [string, string, string];
    await load(t, [expired], -1);
    await load(t, [live], 3);
    const removed = await t.call('orders', 'bulkUpdate', { ids: [expired, fresh], action: 'markRemoved' }, as);
    expect(removed.body.outcomes.map((o: { ok: boolean }) => o.ok)).toEqual([true, false]);
    expect(await statusOf(t, expired)).toBe('removed');
    const resent = await t.call('orders', 'bulkUpdate', { ids: [live, fresh], action: 'resendReadyMessage' }, as);
    expect(resent.body.outcomes.map((o: { ok: boolean }) => o.ok)).toEqual([true, false]);
    const held = await t.call('orders', 'bulkUpdate', { ids: [live, fresh], action: 'holdPin', reason: 'Recall' }, as);
    expect(held.body.outcomes).toEqual([
      { id: live, reference: expect.any(String), ok: true },
      expect.objectContaining({ id: fresh, ok: false, code: 'CONFLICT' }),
    ]);
    const again = await t.call('orders', 'bulkUpdate', { ids: [live], action: 'holdPin', reason: 'Recall' }, as);
    expect(again.body.outcomes[0]).toMatchObject({
      ok: false,
      message: expect.stringContaining('already has its PIN held'),
    });
    const released = await t.call('orders', 'bulkUpdate', { ids: [live], action: 'releasePin', reason: 'Done' }, as);
    expect(released.body.outcomes[0]?.ok).toBe(true);
    expect((await listAudit(t.db, 'order.holdPin')).map((e) => e.entityId)).toEqual([live]);
    expect((await listAudit(t.db, 'order.releasePin')).map((e) => e.entityId)).toEqual([live]);
  });

  it('refuses more orders than one call may change', async () => {
    const as = await support();
    const ids = Array.from({ length: bulkOrdersMax + 1 }, () => Bun.randomUUIDv7());
    const res = await t.call('orders', 'bulkUpdate', { ids, action: 'markRemoved' }, as);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
  });

  it("keeps a pharmacy user to their own business's orders: bulk, selection and export", async () => {
    const as = await support();
    const mine = await estate(t, as, 1);
    const theirs = await estate(t, as, 1);
    const me = await pharmacyOf(mine.businessId);
    const bulk = await t.call('orders', 'bulkUpdate', { ids: [...mine.ids, ...theirs.ids], action: 'markRemoved' }, me);
    expect(bulk.status).toBeOneOf([403, 404]);
    expect(await statusOf(t, theirs.ids[0] as string)).toBe('new');
    const select = await t.call('orders', 'listOrderIds', { businessId: theirs.businessId }, me);
    expect(select.status).toBeOneOf([403, 404]);
    const exported = await t.call('orders', 'exportOrders', { businessId: theirs.businessId }, me);
    expect(exported.status).toBeOneOf([403, 404]);
    const own = await t.call('orders', 'listOrderIds', { businessId: mine.businessId }, me);
    expect(own.body.ids).toEqual(mine.ids);
  });

  it('chooses every order matching the filter, not just the first page', async () => {
    const as = await support();
    const { businessId, ids } = await estate(t, as, 27);
    await load(t, ids.slice(0, 26), -1);
    const res = await t.call('orders', 'listOrderIds', { businessId, statusCode: 'expired' }, as);
    expect(res.status).toBe(200);
    expect(res.body.ids).toEqual(ids.slice(0, 26).reverse());
  });

  it('sorts by patient, machine, status, created and expires, ties by id, paged without repeats', async () => {
    const as = await support();
    const { businessId, ids } = await estate(t, as, 28);
    // Three names, in mixed case, and expiries with some unknown, so every sort has ties.
    for (const [i, id] of ids.entries()) {
      await t.db
        .updateTable('orders')
        .set({
          patient_name: ['zoe Able', 'Adam Best', 'mia Cole'][i % 3] as string,
          expires_at: i % 4 === 0 ? null : T0 + (i % 5) * DAY,
          status: i % 2 === 0 ? 'new' : 'loaded',
        })
        .where('id', '=', id)
        .execute();
    }
    const rows = await t.db.selectFrom('orders').selectAll().where('business_id', '=', businessId).execute();
    const keyOf: Record<string, (r: (typeof rows)[number]) => string | number> = {
      patient: (r) => r.patient_name.toLowerCase(),
      expires: (r) => Number(r.expires_at ?? 0),
      status: (r) => r.status,
      created: (r) => Number(r.created),
      machine: (r) => (r.machine_name ?? '').toLowerCase(),
    };
    for (const [sortBy, key] of Object.entries(keyOf)) {
      for (const sortDirection of ['ascending', 'descending'] as const) {
        const sign = sortDirection === 'ascending' ? 1 : -1;
        const expected = [...rows]
          .sort((x, y) => {
            const [kx, ky] = [key(x), key(y)];
            return sign * (kx < ky ? -1 : kx > ky ? 1 : x.id < y.id ? -1 : 1);
          })
          .map((r) => r.id);
        const input = { businessId, sortBy, sortDirection, onlyCurrent: false };
        const first = await t.call('orders', 'listOrdersByBusiness', input, as);
        expect(first.status).toBe(200);
        const next = await t.call('orders', 'listOrdersByBusiness', { ...input, nextToken: first.body.nextToken }, as);
        expect(next.body.nextToken).toBeNull();
        const got = [...first.body.orders, ...next.body.orders].map((o: { id: string }) => o.id);
        expect({ sortBy, sortDirection, got }).toEqual({ sortBy, sortDirection, got: expected });
      }
    }
    const forged = await t.call(
      'orders',
      'listOrdersByBusiness',
      { businessId, sortBy: 'created', nextToken: Buffer.from('["x","y"]').toString('base64url') },
      as,
    );
    expect(forged.status).toBe(400);
  });

  it('exports the filtered list in its sort as CSV, audited', async () => {
    const as = await support();
    const { businessId, ids } = await estate(t, as, 3);
    await load(t, [ids[0] as string], -1);
    await t.db
      .updateTable('orders')
      .set({ patient_name: '=HYPERLINK("x")' })
      .where('id', '=', ids[1] as string)
      .execute();
    const res = await t.call(
      'orders',
      'exportOrders',
      { businessId, sortBy: 'created', sortDirection: 'ascending' },
      as,
    );
    expect(res.status).toBe(200);
    expect(res.body.orders).toBe(3);
    const lines = (res.body.csv as string).trim().split(/\r?\n/);
    expect(lines[0]).toBe(csvText(ordersCsvColumns, []).trim());
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('Expired');
    expect(lines[2]).toContain("'=HYPERLINK");
    const expired = await t.call('orders', 'exportOrders', { businessId, statusCode: 'expired' }, as);
    expect(expired.body.orders).toBe(1);
    const audited = await listAudit(t.db, 'order.export');
    expect(audited).toHaveLength(2);
    expect(audited[0]?.details).toMatchObject({ orders: 3, statusCode: null });
    expect(audited[1]?.details).toMatchObject({ orders: 1, statusCode: 'expired' });
  });
});
