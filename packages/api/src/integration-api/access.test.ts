import { expect, it } from 'bun:test';
import { deleteTokensOfClient, setClientSecret } from '../areas/integration-clients/repository.ts';
import { hashToken } from '../sessions/tokens.ts';
import { describeApi } from '../testing/api.ts';
import { asSupport, withTestAuth } from '../testing/hub.ts';
import { BASE, caller, count, estate, HOUR, postToken, reply, tokenOf } from '../testing/integration-api.ts';
import { pruneIntegration } from './prune.ts';
import { insertToken } from './repository.ts';

describeApi(
  'integration api: tokens, idempotency, rate limit, errors',
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

      const basic = await postToken(
        t,
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from(`${e.clientId}:${e.secret}`).toString('base64')}` },
      );
      expect(basic.status).toBe(200);
      const api = caller(t, basic.body.access_token);
      expect((await api('GET', '/machines')).status).toBe(200);
    });

    it('refuses a wrong secret, an unknown client and another grant type as OAuth errors', async () => {
      const e = await estate(t);
      const post = (fields: Record<string, string>) => postToken(t, fields);
      const wrong = await post({ grant_type: 'client_credentials', client_id: e.clientId, client_secret: 'mlc_nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_client', status: 401, code: 'UNAUTHENTICATED' });
      const unknown = await post({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: e.secret });
      expect(unknown.status).toBe(401);
      const grant = await post({ grant_type: 'password', client_id: e.clientId, client_secret: e.secret });
      expect(grant.status).toBe(400);
      expect(grant.body.error).toBe('unsupported_grant_type');
      const basic = await postToken(
        t,
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from(`${e.clientId}:mlc_nope`).toString('base64')}` },
      );
      expect(basic.status).toBe(401);
      expect(basic.headers.get('www-authenticate')).toBe('Basic realm="integration"');
      const broken = await reply(
        await t.raw(`${BASE}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"grant_type":',
        }),
      );
      expect(broken.status).toBe(400);
      expect(broken.body.error).toBe('invalid_request');
      expect(await t.db.selectFrom('integration_tokens').selectAll().execute()).toEqual([]);
    });

    it('limits wrong-secret guesses per address, counted before the secret is checked', async () => {
      const e = await estate(t);
      const guess = () =>
        postToken(t, { grant_type: 'client_credentials', client_id: e.clientId, client_secret: 'mlc_guess' });
      for (let i = 0; i < 20; i++) expect((await guess()).status).toBe(401);
      const limited = await guess();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Even the right secret waits: the guess is counted before the secret is read.
      const right = await postToken(t, {
        grant_type: 'client_credentials',
        client_id: e.clientId,
        client_secret: e.secret,
      });
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

    it('leaves no token of a secret replaced while the token was being made', async () => {
      const e = await estate(t);
      const oldHash = hashToken(e.secret);
      let changed = () => {};
      const hasChanged = new Promise<void>((resolve) => {
        changed = resolve;
      });
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      // generateClientSecret's writes, not yet committed when the token (whose secret was right) is stored.
      const rotation = t.db.transaction().execute(async (tx) => {
        await setClientSecret(tx, e.clientId, { hash: hashToken('mlc_new'), hint: 'new' }, t.deps.now());
        await deleteTokensOfClient(tx, e.clientId);
        changed();
        await released;
      });
      await hasChanged;
      const now = t.deps.now();
      const stored = insertToken(t.db, {
        hash: 'h-1',
        clientId: e.clientId,
        secretHash: oldHash,
        expiresAt: now + HOUR,
        now,
      });
      await Bun.sleep(300);
      release();
      await rotation;
      expect(await stored).toBe(false);
      expect(await t.db.selectFrom('integration_tokens').selectAll().execute()).toEqual([]);
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

    it('lets no more requests through than the limit when they come at once', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      expect((await api('GET', '/machines')).status).toBe(200);
      await t.db.updateTable('integration_clients').set({ rate_limit: 200, requests_made: 195 }).execute();
      const answers = await Promise.all(Array.from({ length: 10 }, () => api('GET', '/machines')));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
      const row = await t.db.selectFrom('integration_clients').select('requests_made').executeTakeFirstOrThrow();
      expect(row.requests_made).toBe(200);
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
      const bare = await api('GET', '');
      expect(bare.status).toBe(404);
      expect(bare.headers.get('content-type')).toBe('application/problem+json');
      expect((await api('GET', '/orders/%E0%A4%A')).status).toBe(400);
      expect((await api('GET', `/orders/${'x'.repeat(100)}`)).status).toBe(404);
      expect(await count(t, 'orders')).toBe(0);
    });

    it('refuses text the database cannot store in a query string or a token request with a 400, never a 500', async () => {
      const e = await estate(t);
      const api = caller(t, await tokenOf(t, e));
      for (const query of [
        '/orders?barcode=RX%00',
        `/orders?patientId=${e.patientId}%00`,
        `/orders?cursor=${Buffer.from('["\\u0000"]').toString('base64url')}`,
        '/patients?displayId=P%00',
      ]) {
        const res = await api('GET', query);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
      }
      const form = await postToken(t, {
        grant_type: 'client_credentials',
        client_id: `${e.clientId}\u0000`,
        client_secret: e.secret,
      });
      expect(form.status).toBe(400);
      expect(form.body.error).toBe('invalid_request');
      const basic = await postToken(
        t,
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from(`${e.clientId}%00:${e.secret}`).toString('base64')}` },
      );
      expect(basic.status).toBe(400);
      expect(await t.db.selectFrom('integration_tokens').selectAll().execute()).toHaveLength(1);
    });

    it('describes every route in its OpenAPI 3.1 document', async () => {
      const res = await reply(await t.raw(`${BASE}/openapi.json`));
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      const served = t.app.routes
        .filter((r) => r.path.startsWith(BASE) && !['/openapi.json', '/*', ''].includes(r.path.slice(BASE.length)))
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
