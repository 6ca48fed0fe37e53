import { describe, expect, it } from 'bun:test';
import { checkMetricsAccess } from '../http/metrics-routes.ts';
import type { AnyJobs } from '../jobs/catalogue.ts';
import { enqueueJob } from '../jobs/repository.ts';
import { createRunner, PermanentJobError } from '../jobs/runner.ts';
import { silentLogger } from '../log/logger.ts';
import { describeApi } from '../testing/api.ts';
import { withBootedLocker, withTestAuth } from '../testing/hub.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The value of one sample (`name{labels} value`) in a scrape, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

describeApi(
  '/metrics with METRICS_TOKEN',
  (t) => {
    const scrape = async () => {
      // Requests are counted once their response is handed over (onAfterResponse): let that run.
      await Bun.sleep(10);
      const res = await t.raw('/metrics', bearer(TOKEN));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toStartWith('text/plain; version=0.0.4');
      return res.text();
    };

    it('refuses a scrape without the token or with another, and changes nothing', async () => {
      const none = await t.raw('/metrics');
      expect(none.status).toBe(401);
      expect((await none.json()).error.code).toBe('UNAUTHENTICATED');
      expect((await t.raw('/metrics', bearer(`${TOKEN}x`))).status).toBe(401);
      expect((await t.raw('/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);
    });

    it('counts requests by route pattern and status, never by raw path, with latency histograms', async () => {
      const before = await scrape();
      const ping = { route: '/api/health/ping', method: 'POST', status: '200' };
      const pings = sample(before, 'medlocker_http_requests_total', ping);
      for (let i = 0; i < 3; i++) expect((await t.call('health', 'ping', {})).status).toBe(200);
      // Two short links with different codes: one route, `/u/:code`.
      await t.raw('/u/abc123');
      await t.raw('/u/zz9999');
      // No route: one label too (GET falls to the console's `/*`; a PUT matches nothing).
      await t.raw('/no/such/path/123', { method: 'PUT' });
      const after = await scrape();
      expect(sample(after, 'medlocker_http_requests_total', ping)).toBe(pings + 3);
      expect(sample(after, 'medlocker_http_request_duration_seconds_count', { route: '/api/health/ping' })).toBe(
        sample(before, 'medlocker_http_request_duration_seconds_count', { route: '/api/health/ping' }) + 3,
      );
      expect(
        sample(after, 'medlocker_http_request_duration_seconds_bucket', { route: '/api/health/ping', le: '+Inf' }),
      ).toBeGreaterThanOrEqual(3);
      expect(sample(after, 'medlocker_http_requests_total', { route: '/u/:code', method: 'GET' })).toBe(2);
      expect(sample(after, 'medlocker_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
      expect(sample(after, 'medlocker_http_requests_total', { route: '/metrics', status: '401' })).toBe(3);
      expect(after).not.toContain('abc123');
      expect(after).not.toContain('/no/such/path');
    });

    it('reports connected lockers and consoles, the job queue by type and state, job failures, the pool and the process', async () => {
      await enqueueJob<AnyJobs>(t.db, { type: 'metrics.probe', payload: {} });
      await enqueueJob<AnyJobs>(t.db, { type: 'metrics.probe', payload: {} });
      await enqueueJob<AnyJobs>(t.db, { type: 'metrics.fails', payload: {}, maxAttempts: 1 });
      let text = await scrape();
      expect(sample(text, 'medlocker_jobs', { type: 'metrics.probe', state: 'waiting' })).toBe(2);
      expect(sample(text, 'medlocker_jobs', { type: 'metrics.fails', state: 'waiting' })).toBe(1);
      const failures = sample(text, 'medlocker_job_failures_total', { type: 'metrics.fails', outcome: 'dead' });
      const runner = createRunner<AnyJobs>({
        db: t.db,
        logger: silentLogger,
        handlers: {
          'metrics.fails': {
            run: async () => {
              throw new PermanentJobError('refused');
            },
          },
        },
      });
      await runner.tick();
      await runner.idle();
      text = await scrape();
      expect(sample(text, 'medlocker_jobs', { type: 'metrics.fails', state: 'dead' })).toBe(1);
      expect(sample(text, 'medlocker_job_failures_total', { type: 'metrics.fails', outcome: 'dead' })).toBe(
        failures + 1,
      );
      expect(text).toContain('medlocker_lockers_connected 0');
      expect(text).toContain('medlocker_consoles_connected 0');
      expect(sample(text, 'medlocker_db_pool_connections', { state: 'total' })).toBe(7);
      expect(sample(text, 'medlocker_db_pool_connections', { state: 'waiting' })).toBe(1);
      expect(sample(text, 'medlocker_db_info', { kind: t.kind })).toBe(1);
      // Which build runs, as /version says it.
      const version = (await (await t.raw('/version')).json()) as { version: string; commit: string };
      expect(sample(text, 'medlocker_build_info', version)).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toContain('process_cpu_seconds_total');
    });
  },
  () => ({ dbPool: () => ({ total: 7, idle: 6, waiting: 1 }) }),
  { METRICS_TOKEN: TOKEN },
);

describeApi('/metrics without METRICS_TOKEN', (t) => {
  it('refuses a request not from a loopback peer (in-process requests have none)', async () => {
    const res = await t.raw('/metrics');
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('FORBIDDEN');
  });
});

describeApi(
  '/metrics on a real socket, without METRICS_TOKEN',
  (t) => {
    it('answers a loopback peer, refuses what came through a proxy, and counts a connected locker', async () => {
      await withBootedLocker(t, async ({ hub }) => {
        const res = await fetch(`${hub.http}/metrics`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('medlocker_lockers_connected 1');
        const proxied = await fetch(`${hub.http}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
        expect(proxied.status).toBe(403);
      });
    });
  },
  withTestAuth,
);

describe('who may read /metrics', () => {
  const req = (headers: Record<string, string> = {}) => new Request('http://localhost/metrics', { headers });
  const refused = (f: () => void) => {
    try {
      f();
      return null;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  it('without a token: loopback peers that came through no proxy', () => {
    expect(refused(() => checkMetricsAccess(req(), '127.0.0.1', undefined))).toBeNull();
    expect(refused(() => checkMetricsAccess(req(), '::1', undefined))).toBeNull();
    expect(refused(() => checkMetricsAccess(req(), '::ffff:127.0.0.1', undefined))).toBeNull();
    expect(refused(() => checkMetricsAccess(req(), '10.0.0.5', undefined))).toBe('FORBIDDEN');
    expect(refused(() => checkMetricsAccess(req(), null, undefined))).toBe('FORBIDDEN');
    // A balancer on this machine connects from loopback for anyone: what it forwards is refused.
    expect(refused(() => checkMetricsAccess(req({ 'x-forwarded-for': '203.0.113.9' }), '127.0.0.1', undefined))).toBe(
      'FORBIDDEN',
    );
    expect(refused(() => checkMetricsAccess(req({ forwarded: 'for=203.0.113.9' }), '127.0.0.1', undefined))).toBe(
      'FORBIDDEN',
    );
  });

  it('with a token: that bearer token from anywhere, and loopback is not enough', () => {
    const auth = (v: string) => req({ authorization: v });
    expect(refused(() => checkMetricsAccess(auth(`Bearer ${TOKEN}`), '203.0.113.9', TOKEN))).toBeNull();
    expect(refused(() => checkMetricsAccess(req(), '127.0.0.1', TOKEN))).toBe('UNAUTHENTICATED');
    expect(refused(() => checkMetricsAccess(auth('Bearer wrong'), '127.0.0.1', TOKEN))).toBe('UNAUTHENTICATED');
    expect(refused(() => checkMetricsAccess(auth(`Basic ${TOKEN}`), '127.0.0.1', TOKEN))).toBe('UNAUTHENTICATED');
  });
});
