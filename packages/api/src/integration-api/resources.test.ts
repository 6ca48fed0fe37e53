import { expect, it } from 'bun:test';
import { WEBHOOK_TEST_EVENT } from '@medlocker/core';
import { loadOrder } from '../areas/orders/locker-service.ts';
import { listAudit } from '../audit/audit.ts';
import { recordEvent } from '../delivery/webhooks/events.ts';
import { describeApi } from '../testing/api.ts';
import { asSupport, withTestAuth } from '../testing/hub.ts';
import { caller, count, estate, tokenOf } from '../testing/integration-api.ts';
import { testPatient } from '../testing/patients.ts';

describeApi(
  'integration api: resources',
  (t) => {
    it('creates, reads, lists and cancels orders through the console’s services', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const created = await api('POST', '/orders', {
        patientId: e.patientId,
        barcode: 'RX-1',
        machineId: e.machineId,
        collectionWindow: 5,
      });
      expect(created.status).toBe(201);
      expect(created.body.order).toMatchObject({
        reference: '000001',
        patientId: e.patientId,
        barcode: 'RX-1',
        machineId: e.machineId,
        status: 'new',
        createdVia: 'integration-api',
        collectionWindow: 5,
        prescriptionCharge: 0,
      });
      expect(created.body.order.createdAt).toBe(new Date(t.deps.now()).toISOString());
      expect(JSON.stringify(created.body)).not.toContain('pin');
      const id = created.body.order.id;
      const events = await t.db
        .selectFrom('order_events')
        .select(['code', 'data'])
        .where('order_id', '=', id)
        .execute();
      expect(events.map((x) => x.code)).toEqual(['ORDER_CREATED']);

      expect((await api('GET', `/orders/${id}`)).body.order.id).toBe(id);
      const [read] = await listAudit(t.db, 'order.read');
      expect(read).toMatchObject({ entityId: id, details: { via: 'integration.getOrder' } });
      const duplicate = await api('POST', '/orders', { patientId: e.patientId, barcode: 'RX-1' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.errors[0]).toMatchObject({ path: 'barcode', id: 'DUPLICATE_ITEM' });

      const cancelled = await api('POST', `/orders/${id}/cancel`, { reason: 'Prescription changed' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.order.status).toBe('cancelled');
      expect(cancelled.body.order.cancelledAt).not.toBeNull();
      const again = await api('POST', `/orders/${id}/cancel`, { reason: 'Again' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 'INVALID_TRANSITION',
        status: 409,
        type: 'urn:medlocker:problem:invalid-transition',
      });
      expect((await api('POST', `/orders/${id}/cancel`, {})).status).toBe(400);
      expect((await api('GET', '/orders/nope')).status).toBe(404);
    });

    it('lists orders newest first with filters and cursor paging', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) {
        ids.push((await api('POST', '/orders', { patientId: e.patientId, barcode: `RX-${i}` })).body.order.id);
        t.advance(60_000);
      }
      await api('POST', `/orders/${ids[1]}/cancel`, { reason: 'No longer needed' });
      const first = await api('GET', '/orders?limit=2');
      expect(first.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[4], ids[3]]);
      const second = await api('GET', `/orders?limit=2&cursor=${first.body.next}`);
      expect(second.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
      const third = await api('GET', `/orders?limit=2&cursor=${second.body.next}`);
      expect(third.body).toMatchObject({ next: null });
      expect(third.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[0]]);

      const byStatus = await api('GET', '/orders?status=cancelled');
      expect(byStatus.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[1]]);
      expect((await api('GET', '/orders?barcode=RX-3')).body.orders.map((o: { id: string }) => o.id)).toEqual([ids[2]]);
      const from = new Date(t.deps.now() - 3 * 60_000).toISOString();
      const to = new Date(t.deps.now() - 60_000).toISOString();
      const range = await api('GET', `/orders?createdFrom=${from}&createdTo=${to}`);
      expect(range.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[3], ids[2]]);
      expect((await api('GET', `/orders?patientId=${e.patientId}`)).body.orders).toHaveLength(5);

      const bad = await api('GET', '/orders?status=lost&limit=0&cursor=zzz');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION');
      expect(bad.body.errors.map((x: { path: string }) => x.path).sort()).toEqual(['limit', 'status']);
      expect((await api('GET', '/orders?cursor=zzz')).body.errors[0].path).toBe('cursor');
      expect((await api('GET', '/orders?colour=blue')).status).toBe(400);
    });

    it('upserts patients by the business’s id for them, and reads them', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const input = testPatient(7);
      const created = await api('POST', '/patients', input);
      expect(created.status).toBe(201);
      expect(created.body.patient).toMatchObject({ displayId: input.displayId, deleted: false });
      const updated = await api('POST', '/patients', { ...input, name: { given: 'New', family: 'Name' } });
      expect(updated.status).toBe(200);
      expect(updated.body.patient).toMatchObject({ id: created.body.patient.id, name: 'New Name' });
      expect(await count(t, 'patients')).toBe(2);

      expect((await api('GET', `/patients/${created.body.patient.id}`)).body.patient.name).toBe('New Name');
      const found = await api('GET', `/patients?displayId=${input.displayId}`);
      expect(found.body.patient.id).toBe(created.body.patient.id);
      expect((await api('GET', '/patients?displayId=nobody')).status).toBe(404);

      const bad = await api('POST', '/patients', { displayId: 'X1', name: { full: 'A B' }, mobileNumber: '12' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toContainEqual(
        expect.objectContaining({ path: 'mobileNumber', id: 'INVALID_UK_MOBILE' }),
      );
    });

    it('refuses a patient with fields the document does not declare (400, each named), and stores nothing', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const before = await count(t, 'patients');
      const body = `{${JSON.stringify(testPatient(9)).slice(1, -1)},"id":"p-chosen","__proto__":{"x":1},"constructor":"y","name2":{"nested":true}}`;
      const res = await api('POST', '/patients', body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((x: { path: string }) => x.path).sort()).toEqual([
        '__proto__',
        'constructor',
        'id',
        'name2',
      ]);
      expect(await count(t, 'patients')).toBe(before);
      const nested = await api('POST', '/patients', {
        ...testPatient(9),
        address: { ...testPatient(9).address, extra: 1 },
      });
      expect(nested.status).toBe(400);
    });

    it('finds a patient by an NHS number written as the upsert took it (with spaces)', async () => {
      const e = await estate(t);
      const displayIdField = { name: 'NHS number', required: true, validateNhsNumber: true };
      const settings = { businessId: e.businessId, settings: { displayIdField } };
      expect((await t.call('businessSettings', 'updateBusinessFeatureSettings', settings, asSupport)).status).toBe(200);
      const api = caller(t, await tokenOf(t, e));
      const created = await api('POST', '/patients', testPatient(8, { displayId: '943 476 5919' }));
      expect(created.status).toBe(201);
      expect(created.body.patient.displayId).toBe('9434765919');
      const again = await api('POST', '/patients', testPatient(8, { displayId: '943 476 5919' }));
      expect(again.status).toBe(200);
      for (const written of ['943 476 5919', '9434765919']) {
        const found = await api('GET', `/patients?displayId=${encodeURIComponent(written)}`);
        expect([written, found.status, found.body.patient?.id]).toEqual([written, 200, created.body.patient.id]);
      }
    });

    it('lists the business’s lockers and tells whether one can take an order', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const list = await api('GET', '/machines');
      expect(list.body.machines).toEqual([
        expect.objectContaining({ id: e.machineId, name: 'Front', numberOfSlots: 12, outOfOrder: false }),
      ]);
      const free = await api('GET', `/machines/${e.machineId}/availability`);
      expect(free.body.availability).toEqual({
        machineId: e.machineId,
        numberOfSlots: 12,
        occupiedSlots: 0,
        freeSlots: 12,
        canTakeOrder: true,
        reasons: [],
      });
      await t.db.updateTable('machines').set({ number_of_slots: 1, out_of_order_at: 1 }).execute();
      await t.db
        .insertInto('bags')
        .values({
          id: 'bag1',
          business_id: e.businessId,
          barcode: 'RX-9',
          machine_id: e.machineId,
          location: 'A1',
          created: 1,
          updated: 1,
        })
        .execute();
      const full = await api('GET', `/machines/${e.machineId}/availability`);
      expect(full.body.availability).toMatchObject({
        freeSlots: 0,
        canTakeOrder: false,
        reasons: ['outOfOrder', 'full'],
      });
    });

    it('serves the events feed in sequence order, without test events, with a cursor', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const record = (type: string, data: Record<string, unknown>) =>
        recordEvent(t.db, { businessId: e.businessId, type: type as never, orderingKey: null, data }, t.deps.now());
      await record('order.created', { id: 'o1' });
      await record(WEBHOOK_TEST_EVENT, { test: true });
      await record('order.loaded', { id: 'o1' });
      await record('machine.status', { id: 'm1' });
      const first = await api('GET', '/events?limit=2');
      expect(first.body.events.map((x: { type: string }) => x.type)).toEqual(['order.created', 'order.loaded']);
      expect(first.body.events[0]).toMatchObject({ sequence: 1, data: { id: 'o1' } });
      expect(first.body.events[0].timestamp).toBe(new Date(t.deps.now()).toISOString());
      const next = await api('GET', `/events?after=${first.body.next}`);
      expect(next.body.events.map((x: { type: string }) => x.type)).toEqual(['machine.status']);
      const end = await api('GET', `/events?after=${next.body.next}`);
      expect(end.body).toEqual({ events: [], next: next.body.next });
      expect((await api('GET', '/events?after=-1')).status).toBe(400);
    });

    it('never shows a client another business’s orders, patients, machines or events', async () => {
      const a = await estate(t, { patient: 1 });
      const b = await estate(t, { patient: 2 });
      const apiA = caller(t, await tokenOf(t, a));
      const apiB = caller(t, await tokenOf(t, b));
      // Its order.created event is recorded by the order's creation itself.
      const order = (await apiA('POST', '/orders', { patientId: a.patientId, barcode: 'RX-A' })).body.order;
      expect((await apiB('GET', `/orders/${order.id}`)).status).toBe(404);
      expect((await apiB('POST', `/orders/${order.id}/cancel`, { reason: 'x' })).status).toBe(404);
      expect((await apiB('GET', '/orders')).body.orders).toEqual([]);
      expect((await apiB('GET', `/orders?patientId=${a.patientId}`)).body.orders).toEqual([]);
      const foreign = await apiB('POST', '/orders', { patientId: a.patientId, barcode: 'RX-B' });
      expect(foreign.status).toBe(400);
      expect((await apiB('GET', `/patients/${a.patientId}`)).status).toBe(404);
      const displayId = testPatient(1).displayId;
      expect((await apiB('GET', `/patients?displayId=${displayId}`)).status).toBe(404);
      expect((await apiB('GET', '/machines')).body.machines.map((m: { id: string }) => m.id)).toEqual([b.machineId]);
      expect((await apiB('GET', `/machines/${a.machineId}/availability`)).status).toBe(404);
      expect((await apiB('GET', '/events')).body.events).toEqual([]);
      const eventsOfA = (await apiA('GET', '/events')).body.events;
      expect(eventsOfA.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id])).toEqual([
        ['order.created', order.id],
      ]);
      // B's upsert of A's patient's id makes B's own patient, never touches A's.
      const upsert = await apiB('POST', '/patients', testPatient(1));
      expect(upsert.status).toBe(201);
      expect(upsert.body.patient.id).not.toBe(a.patientId);
      expect((await apiA('GET', `/orders/${order.id}`)).body.order.status).toBe('new');
    });

    it('sends the patient no message for an order of a partner that suppresses them', async () => {
      for (const suppress of [true, false]) {
        const e = await estate(t, { suppress, patient: suppress ? 1 : 2 });
        const api = caller(t, await tokenOf(t, e));
        const id = (await api('POST', '/orders', { patientId: e.patientId, barcode: 'RX-1', machineId: e.machineId }))
          .body.order.id;
        await t.db.transaction().execute((tx) =>
          loadOrder(
            tx,
            t.deps,
            {
              kind: 'locker',
              machineId: e.machineId,
              businessId: e.businessId,
              origin: { via: 'test', requestId: 'r', ip: null, userAgent: null },
            },
            id,
            { location: 'A1' },
          ),
        );
        const outbox = await t.db
          .selectFrom('message_outbox')
          .select('template_key')
          .where('order_id', '=', id)
          .execute();
        const codes = await t.db.selectFrom('order_events').select('code').where('order_id', '=', id).execute();
        if (suppress) {
          expect(outbox).toEqual([]);
          expect(codes.map((c) => c.code)).toContain('MESSAGE_SUPPRESSED');
        } else {
          expect(outbox.map((m) => m.template_key)).toEqual(['orderReady']);
        }
      }
    });
  },
  withTestAuth,
);
