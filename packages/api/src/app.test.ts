import { describe, expect, it } from 'bun:test';
import { contract } from '@medlocker/core';
import { loggablePath } from './app.ts';
import { describeApi, TEST_ORIGIN } from './testing/api.ts';

describeApi('the api skeleton', (t) => {
  it('answers /healthz and /readyz with the database kind', async () => {
    expect((await t.raw('/healthz')).status).toBe(200);
    const ready = await t.raw('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, database: t.kind });
  });

  it('fails /readyz while the process is draining, so a balancer takes it out before it stops', async () => {
    t.deps.lifecycle = { draining: true };
    try {
      const draining = await t.raw('/readyz');
      expect(draining.status).toBe(503);
      expect(await draining.json()).toMatchObject({ ok: false, draining: true });
      expect((await t.raw('/healthz')).status).toBe(200);
    } finally {
      t.deps.lifecycle = undefined;
    }
    expect((await t.raw('/readyz')).status).toBe(200);
  });

  it('names the version and commit it runs at /version', async () => {
    const answer = await t.raw('/version');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { version: string; commit: string };
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.commit.length).toBeGreaterThan(0);
  });

  it('answers a path with a broken %-escape with 400, whatever route it would reach', async () => {
    for (const path of ['/files/logos/%ZZ', '/hooks/messages/aws-sms/%ZZ', '/api/health/%ZZ']) {
      const answer = await t.raw(path);
      expect(answer.status).toBe(400);
      expect((await answer.json()).error.code).toBe('BAD_REQUEST');
    }
  });

  it('dispatches a contract method and validates its input', async () => {
    const ok = await t.call('health', 'ping', { echo: 'hello' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, echo: 'hello' });
    const bad = await t.call('health', 'ping', { echo: 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION');
    expect(bad.body.error.details?.[0]?.path).toBe('echo');
  });

  it('refuses a body that is not JSON with 415 and unreadable JSON with 400', async () => {
    const form = await t.raw('/api/health/ping', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'echo=1',
    });
    expect(form.status).toBe(415);
    const broken = await t.raw('/api/health/ping', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"echo":',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('BAD_REQUEST');
  });

  it('refuses text with a NUL character (PostgreSQL cannot store it) with 400, and takes an escaped backslash before u0000', async () => {
    const nul = await t.call('health', 'ping', { echo: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Text cannot contain the NUL character (\\u0000)',
    });
    const notNul = await t.call('health', 'ping', { echo: 'a\\u0000b' });
    expect(notNul.status).toBe(200);
    expect(notNul.body).toMatchObject({ echo: 'a\\u0000b' });
  });

  it('refuses an unpaired surrogate with 400 on any method, and takes emoji', async () => {
    const lone = 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)';
    const ping = await t.call('health', 'ping', { echo: 'a\uD800' });
    expect(ping.status).toBe(400);
    expect(ping.body.error).toMatchObject({ code: 'BAD_REQUEST', message: lone });
    // Login stores what it was sent in jsonb (its audit), where PostgreSQL refused the surrogate: a 500.
    const login = await t.call('auth', 'login', { username: 'ada\uDC00@example.com', password: 'secret' });
    expect(login.status).toBe(400);
    expect(login.body.error.message).toBe(lone);
    const emoji = await t.call('health', 'ping', { echo: 'ok 😀' });
    expect(emoji.body).toMatchObject({ echo: 'ok 😀' });
  });

  it('refuses a body nested more than 32 levels deep with 400 rather than overflowing the validator', async () => {
    const deep = await t.raw('/api/health/ping', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      body: `{"echo":${'['.repeat(30_000)}${']'.repeat(30_000)}}`,
    });
    expect(deep.status).toBe(400);
    expect((await deep.json()).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'JSON cannot be nested more than 32 levels deep',
    });
  });

  it('answers a malformed percent-escape in a report address with 400, and in the session cookie as no session, never 500', async () => {
    for (const [path, init] of [
      ['/hooks/messages/smsworks/x/%ZZ', { method: 'POST', body: '{}' }],
      ['/hooks/messages/smsworks/%ZZ/%ZZ', { method: 'POST', body: '{}' }],
      ['/hooks/messages/messagebird/x/%ZZ?id=1&status=delivered', {}],
      ['/hooks/messages/aws-sms/%E0%A4%A', { method: 'POST', body: '{}' }],
    ] as const) {
      // A report address that cannot be read is no address of ours.
      const res = await t.raw(path, init);
      expect([path, res.status]).toEqual([path, 400]);
    }
    // A cookie no token of ours can be is no cookie (auth/tokens.ts cookieToken): not logged in.
    const res = await t.call('notifications', 'count', {}, { headers: { cookie: 'medlocker_session=%ZZ' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a state-changing call from a foreign origin', async () => {
    const res = await t.call('health', 'ping', {}, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('answers unknown api routes with a 404 error body, not the console', async () => {
    const res = await t.call('health' as never, 'nope' as never, {});
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('serves an OpenAPI document listing every contract method', async () => {
    const res = await t.raw('/api/openapi.json');
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/health/ping');
    const page = await t.raw('/api/docs');
    expect(await page.text()).toContain('swagger-ui');
    expect((await t.raw('/api/docs/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('puts a request id and security headers on every response', async () => {
    const res = await t.raw('/healthz');
    expect(res.headers.get('x-request-id')).toMatch(/.{8,}/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const bad = await t.call('health', 'ping', { echo: 5 });
    expect(bad.headers.get('x-request-id')).toMatch(/.{8,}/);
    // Plain http (tests, a dev server): no HSTS, which would lock a browser out of http://localhost.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('asks browsers for https only (HSTS) on every answer to an https request', async () => {
    const res = await t.app.handle(new Request('https://medlocker.example.test/healthz'));
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    const refused = await t.app.handle(new Request('https://medlocker.example.test/api/health/%ZZ'));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  });

  it('serves every method of the contract', async () => {
    const missing: string[] = [];
    for (const [area, methods] of Object.entries(contract)) {
      for (const method of Object.keys(methods)) {
        const res = await t.raw(`/api/${area}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        const body = await res.json();
        if (res.status === 404 && body.error?.message === 'No such route') missing.push(`${area}/${method}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the access log', () => {
  it('keeps no bearer secret of a path: report tokens and short-link codes are cut off', () => {
    expect(loggablePath('/hooks/messages/smsworks/m1/tok3n')).toBe('/hooks/messages/smsworks/m1/…');
    expect(loggablePath('/hooks/messages/messagebird/m1/tok3n')).toBe('/hooks/messages/messagebird/m1/…');
    expect(loggablePath('/hooks/messages/aws-sms/tok3n')).toBe('/hooks/messages/aws-sms/…');
    expect(loggablePath('/u/AbCdEf123')).toBe('/u/…');
    expect(loggablePath('/hooks/messages/whatsapp')).toBe('/hooks/messages/whatsapp');
    expect(loggablePath('/api/orders/get')).toBe('/api/orders/get');
  });
});
