import { expect, it } from 'bun:test';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { seedBusiness } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { createShortUrl, SHORT_URL_CAP_MS } from './service.ts';

describeApi('short links', (t) => {
  const get = (path: string) => t.raw(path, { redirect: 'manual' });

  it('makes a 22-character URL-safe code on PUBLIC_URL that redirects to its target, until it expires', async () => {
    const support = await t.signIn({ support: true });
    const res = await t.call('url', 'createUrl', { target: '/p/orders?x=1' }, support);
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.body.url).toBe(`${TEST_ORIGIN}/u/${res.body.code}`);
    expect(res.body.expiresAt).toBe(t.deps.now() + SHORT_URL_CAP_MS);

    const hop = await get(`/u/${res.body.code}`);
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('/p/orders?x=1');
    expect((await t.call('url', 'getUrl', { code: res.body.code })).body).toEqual({ target: '/p/orders?x=1' });

    t.advance(SHORT_URL_CAP_MS);
    const gone = await get(`/u/${res.body.code}`);
    expect(gone.status).toBe(404);
    expect((await t.call('url', 'getUrl', { code: res.body.code })).status).toBe(404);
  });

  it('codes differ every time', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 50; i++) codes.add((await createShortUrl(t.db, t.deps, { target: '/' })).code);
    expect(codes.size).toBe(50);
  });

  it('answers any unknown, long or odd code with the same plain 404 page, never a 500', async () => {
    const page = await get('/u/nothing-here');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('This link is not valid');
    for (const odd of [
      'x'.repeat(5000),
      '%E0%A4%A',
      '..%2F..%2Fetc',
      "'; drop table short_urls;--",
      '%00',
      'a/b',
      '',
    ]) {
      const res = await get(`/u/${odd}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(html);
    }
    expect((await t.call('url', 'getUrl', { code: "'; select 1" })).status).toBe(404);
    expect((await t.call('url', 'getUrl', { code: 'x'.repeat(1000) })).status).toBe(400);
  });

  it('refuses targets on other hosts, so a short link is never an open redirect', async () => {
    const support = await t.signIn({ support: true });
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await t.call('url', 'createUrl', { target }, support);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'target', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
      ]);
    }
    const own = await t.call('url', 'createUrl', { target: `${TEST_ORIGIN}/p/x` }, support);
    expect(own.status).toBe(200);
  });

  it("a link to an order expires with the order, follows its expiry when it moves, and is scoped to the order's business", async () => {
    await seedBusiness(t.db, 'b1');
    await seedBusiness(t.db, 'b2');
    const support = await t.signIn({ support: true });
    const patient = await t.call(
      'patients',
      'create',
      {
        businessId: 'b1',
        patient: testPatient(1),
      },
      support,
    );
    expect(patient.status).toBe(200);
    const order = await t.call(
      'orders',
      'create',
      { businessId: 'b1', patientId: patient.body.patient.id, barcode: 'RX-1' },
      support,
    );
    expect(order.status).toBe(200);
    const orderId = order.body.order.id;
    const expiresAt = t.deps.now() + 60_000;
    await t.db.updateTable('orders').set({ expires_at: expiresAt }).where('id', '=', orderId).execute();

    const pat = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1' }] });
    const other = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b2' }] });
    expect((await t.call('url', 'createUrl', { target: '/p/o', orderId }, other)).status).toBe(404);
    const link = await t.call('url', 'createUrl', { target: '/p/o', orderId }, pat);
    expect(link.status).toBe(200);
    expect(link.body.expiresAt).toBe(expiresAt);
    const row = await t.db
      .selectFrom('short_urls')
      .selectAll()
      .where('code', '=', link.body.code)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ order_id: orderId, business_id: 'b1' });

    // The window extended: the link lives on with it; past the order's expiry it is gone.
    await t.db
      .updateTable('orders')
      .set({ expires_at: expiresAt + 60_000 })
      .where('id', '=', orderId)
      .execute();
    t.advance(90_000);
    expect((await get(`/u/${link.body.code}`)).status).toBe(302);
    t.advance(60_000);
    expect((await get(`/u/${link.body.code}`)).status).toBe(404);
  });
});
