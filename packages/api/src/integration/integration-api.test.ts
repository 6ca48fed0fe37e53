import { expect, it } from 'bun:test';
import { WEBHOOK_TEST_EVENT } from '@medlocker/core';
import { loadOrder } from '../areas/orders/locker-service.ts';
import { insertBusiness, testPatient } from '../areas/patients/test-helpers.ts';
import { asSupport, withTestAuth } from '../hubs/test-kit.ts';
import { describeApi, type TestApi } from '../testing.ts';
import { recordEvent } from '../webhooks/events.ts';
import { pruneIntegration } from './prune.ts';

const HOUR = 3_600_000;
const BASE = '/integration/v1';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers (and send bad input) without a type per route.
type Reply = { status: number; body: any; headers: Headers };

/** A business with a patient, a locker and an integration client with a secret. */
async function estate(t: TestApi, options: { suppress?: boolean; patient?: number } = {}) {
  const businessId = await insertBusiness(t.db);
  const ok = async (p: Promise<Omit<Reply, 'headers'>>) => {
    const res = await p;
    if (res.status !== 200) throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const patient = await ok(
    t.call('patients', 'create', { businessId, patient: testPatient(options.patient ?? 1) }, asSupport),
  );
  const machine = await ok(
    t.call('machines', 'createMachine', { businessId, name: 'Front', numberOfSlots: 12 }, asSupport),
  );
  const client = await ok(
    t.call(
      'integration',
      'createOrUpdateIntegrationClient',
      {
        businessId,
        name: 'Example PMR',
        contactEmail: 'support@pmr.example',
        suppressPatientMessages: options.suppress ?? false,
        webhookUrl: null,
        rateLimit: 1200,
      },
      asSupport,
    ),
  );
  const clientId = client.client.id as string;
  const { secret } = await ok(t.call('integration', 'generateClientSecret', { id: clientId }, asSupport));
  return {
    businessId,
    clientId,
    secret: secret as string,
    patientId: patient.patient.id as string,
    machineId: machine.machine.id as string,
  };
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function tokenOf(t: TestApi, e: { clientId: string; secret: string }): Promise<string> {
  const res = await reply(
    await t.raw(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: e.secret }),
    }),
  );
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** Calls the API with a bearer token. */
const caller =
  (t: TestApi, token: string | null) =>
  async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    reply(
      await t.raw(`${BASE}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );

const count = async (t: TestApi, table: 'orders' | 'patients' | 'message_outbox') =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describeApi(
  'integration api',
  (t) => {
    it('gives a bearer token for the client credentials, form-encoded, JSON or HTTP Basic', async () => {
      const e = await estate(t);
      const token = await tokenOf(t, e);
      expect(token).toMatch(/^mlt_/);
      const stored = await t.db.selectFrom('integration_tokens').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(token);
      expect(Number(stored[0]?.expires_at)).toBe(t.deps.now() + HOUR);

      const json = await reply(
        await t.raw(`${BASE}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: e.secret }),
        }),
      );
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(json.headers.get('cache-control')).toBe('no-store');

      const basic = await reply(
        await t.raw(`${BASE}/oauth/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${e.clientId}:${e.secret}`).toString('base64')}`,
          },
          body: form({ grant_type: 'client_credentials' }),
        }),
      );
      expect(basic.status).toBe(200);
      const api = caller(t, basic.body.access_token);
      expect((await api('GET', '/machines')).status).toBe(200);
    });

    it('refuses a wrong secret, an unknown client and another grant type as OAuth errors', async () => {
      const e = await estate(t);
      const post = async (fields: Record<string, string>) =>
        reply(
          await t.raw(`${BASE}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form(fields),
          }),
        );
      const wrong = await post({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: 'mlc_nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_client', status: 401, code: 'UNAUTHENTICATED' });
      const unknown = await post({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: e.secret });
      expect(unknown.status).toBe(401);
      const grant = await post({ grant_type: 'password', client_id: e.clientId, client_secret: e.secret });
      expect(grant.status).toBe(400);
      expect(grant.body.error).toBe('unsupported_grant_type');
      expect(await t.db.selectFrom('integration_tokens').selectAll().execute()).toEqual([]);
    });

    it('limits wrong-secret guesses per address, counted before the secret is checked', async () => {
      const e = await estate(t);
      const guess = () =>
        t.raw(`${BASE}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: 'mlc_guess' }),
        });
      for (let i = 0; i < 20; i++) expect((await guess()).status).toBe(401);
      const limited = await reply(await guess());
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Even the right secret waits: the guess is counted before the secret is read.
      const right = await reply(
        await t.raw(`${BASE}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: e.secret }),
        }),
      );
      expect(right.status).toBe(429);
    });

    it('refuses no token, an unknown or expired one, one of a deleted client, and one from before a new secret', async () => {
      const e = await estate(t);
      const none = await caller(t, null)('GET', '/orders');
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('Bearer');
      expect(none.headers.get('content-type')).toBe('application/problem+json');
      expect((await caller(t, 'mlt_unknown')('GET', '/orders')).status).toBe(401);

      const token = await tokenOf(t, e);
      expect((await caller(t, token)('GET', '/orders')).status).toBe(200);
      t.advance(HOUR);
      expect((await caller(t, token)('GET', '/orders')).status).toBe(401);

      const second = await tokenOf(t, e);
      expect((await caller(t, second)('GET', '/orders')).status).toBe(200);
      const { secret } = (await t.call('integration', 'generateClientSecret', { id: e.clientId }, asSupport)).body;
      expect((await caller(t, second)('GET', '/orders')).status).toBe(401);

      const third = await tokenOf(t, { clientId: e.clientId, secret });
      expect((await caller(t, third)('GET', '/orders')).status).toBe(200);
      await t.call('integration', 'deleteIntegrationClient', { id: e.clientId }, asSupport);
      expect((await caller(t, third)('GET', '/orders')).status).toBe(401);
    });

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
      expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: 'mobileNumber', id: 'INVALID_UK_MOBILE' }));
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
      const order = (await apiA('POST', '/orders', { patientId: a.patientId, barcode: 'RX-A' })).body.order;
      await recordEvent(
        t.db,
        { businessId: a.businessId, type: 'order.created', orderingKey: order.id, data: order },
        t.deps.now(),
      );
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
      expect((await apiA('GET', '/events')).body.events).toHaveLength(1);
      // B's upsert of A's patient's id makes B's own patient, never touches A's.
      const upsert = await apiB('POST', '/patients', testPatient(1));
      expect(upsert.status).toBe(201);
      expect(upsert.body.patient.id).not.toBe(a.patientId);
      expect((await apiA('GET', `/orders/${order.id}`)).body.order.status).toBe('new');
    });

    it('answers a repeated Idempotency-Key with the first answer, and another body with 422', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const body = { patientId: e.patientId, barcode: 'RX-1' };
      const key = { 'idempotency-key': 'k-1' };
      const first = await api('POST', '/orders', body, key);
      expect(first.status).toBe(201);
      const again = await api('POST', '/orders', { barcode: 'RX-1', patientId: e.patientId }, key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await count(t, 'orders')).toBe(1);

      const other = await api('POST', '/orders', { ...body, barcode: 'RX-2' }, key);
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
      expect(await count(t, 'orders')).toBe(1);

      // An error answer is kept too: the same request answers the same 400.
      const bad = await api('POST', '/orders', { barcode: 'RX-3' }, { 'idempotency-key': 'k-2' });
      expect(bad.status).toBe(400);
      const badAgain = await api('POST', '/orders', { barcode: 'RX-3' }, { 'idempotency-key': 'k-2' });
      expect(badAgain.status).toBe(400);
      expect(badAgain.headers.get('content-type')).toBe('application/problem+json');

      // Kept 24 hours, then pruned: the key is free again.
      t.advance(24 * HOUR + 1);
      expect(await pruneIntegration(t.deps)).toBeGreaterThan(0);
      const api2 = caller(t, await tokenOf(t, e));
      expect((await api2('POST', '/orders', { ...body, barcode: 'RX-2' }, key)).status).toBe(201);
    });

    it('answers 409 while the first request with a key is still being answered', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const body = { patientId: e.patientId, barcode: 'RX-1' };
      const both = await Promise.all([
        api('POST', '/orders', body, { 'idempotency-key': 'same' }),
        api('POST', '/orders', body, { 'idempotency-key': 'same' }),
      ]);
      const statuses = both.map((r) => r.status).sort();
      // The second either found the first still running (409) or its answer (a replay).
      expect([
        [201, 201],
        [201, 409],
      ]).toContainEqual(statuses);
      expect(await count(t, 'orders')).toBe(1);
      // A first request still being answered: its key is claimed and has no answer yet.
      const running = { ...body, barcode: 'RX-2' };
      expect((await api('POST', '/orders', running, { 'idempotency-key': 'running' })).status).toBe(201);
      await t.db
        .updateTable('idempotency_keys')
        .set({ status: null, response: null })
        .where('key', '=', 'running')
        .execute();
      const inFlight = await api('POST', '/orders', running, { 'idempotency-key': 'running' });
      expect(inFlight.status).toBe(409);
      expect(inFlight.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(await count(t, 'orders')).toBe(2);
    });

    it('counts requests in the client’s hourly window in the database, and answers 429 with Retry-After', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const ok = await api('GET', '/machines');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe('1200');
      expect(ok.headers.get('ratelimit-remaining')).toBe('1199');
      t.advance(10 * 60_000);
      await t.db.updateTable('integration_clients').set({ requests_made: 1200 }).execute();
      const limited = await api('GET', '/machines');
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(limited.headers.get('retry-after')).toBe(String(50 * 60));
      const row = await t.db.selectFrom('integration_clients').select('requests_made').executeTakeFirstOrThrow();
      expect(row.requests_made).toBe(1200);
      t.advance(50 * 60_000);
      const fresh = await caller(t, await tokenOf(t, e))('GET', '/machines');
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('ratelimit-remaining')).toBe('1199');
    });

    it('answers bad requests with RFC 9457 problem details, never a 500', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      const malformed = await api('POST', '/orders', '{"barcode":');
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toBe('application/problem+json');
      expect(malformed.body).toMatchObject({
        type: 'urn:medlocker:problem:bad-request',
        title: 'Bad Request',
        status: 400,
        code: 'BAD_REQUEST',
        instance: `${BASE}/orders`,
      });
      const types = await api('POST', '/orders', { patientId: 5, barcode: ['x'], extra: true });
      expect(types.status).toBe(400);
      expect(types.body.errors.map((x: { path: string }) => x.path).sort()).toEqual(['barcode', 'extra', 'patientId']);
      expect((await api('POST', '/orders', '[1]')).status).toBe(400);
      expect((await api('POST', '/orders', 'x'.repeat(1_100_000))).status).toBe(413);
      const text = await api('POST', '/orders', 'barcode=1', { 'content-type': 'text/plain' });
      expect(text.status).toBe(415);
      const unknown = await api('GET', '/nothing/here');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toBe('application/problem+json');
      expect(unknown.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect((await api('GET', '/orders/%E0%A4%A')).status).toBe(400);
      expect((await api('GET', `/orders/${'x'.repeat(100)}`)).status).toBe(404);
      expect(await count(t, 'orders')).toBe(0);
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

    it('describes every route in its OpenAPI 3.1 document', async () => {
      const res = await reply(await t.raw(`${BASE}/openapi.json`));
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      const served = t.app.routes
        .filter((r) => r.path.startsWith(BASE) && !['/openapi.json', '/*'].includes(r.path.slice(BASE.length)))
        .map((r) => `${r.method.toLowerCase()} ${r.path.slice(BASE.length).replace(/:([A-Za-z]+)/g, '{$1}')}`)
        .sort();
      const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
        .sort();
      expect(served.length).toBeGreaterThan(10);
      expect(documented).toEqual(served);
      const create = res.body.paths['/orders'].post;
      expect(create.requestBody.content['application/json'].schema.required).toEqual(['barcode', 'patientId']);
      expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
      const list = res.body.paths['/orders'].get;
      expect(list.parameters.map((p: { name: string }) => p.name)).toContain('cursor');
    });
  },
  withTestAuth,
);
