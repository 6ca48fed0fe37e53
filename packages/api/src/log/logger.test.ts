import { describe, expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { createLogger } from './logger.ts';

const infoLines: string[] = [];
const accessLines: string[] = [];
const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l));
// onAfterResponse runs once the response is handed over.
const settle = () => Bun.sleep(5);

describe('the logger', () => {
  it('writes one JSON line per entry with its level, time, message and fields', () => {
    const lines: string[] = [];
    createLogger('info', (l) => lines.push(l)).warn('disk low', { freeMb: 12 });
    const [entry] = parsed(lines);
    expect(entry).toMatchObject({ level: 'warn', msg: 'disk low', freeMb: 12 });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it('writes nothing below its level', () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (l) => lines.push(l));
    logger.info('hidden');
    logger.debug('hidden');
    logger.trace('hidden');
    expect(lines).toEqual([]);
    expect(logger.enabled('debug')).toBe(false);
    expect(logger.enabled('error')).toBe(true);
  });
});

describeApi(
  'request logging at warn',
  (t) => {
    it('writes no access line for 100 requests', async () => {
      infoLines.length = 0;
      for (let i = 0; i < 50; i++) {
        await t.call('health', 'ping', { echo: 'x' });
        await t.raw('/healthz');
      }
      await settle();
      expect(parsed(infoLines).filter((e) => e.msg === 'request')).toEqual([]);
    });
  },
  () => ({ logger: createLogger('warn', (line) => infoLines.push(line)) }),
);

describeApi(
  'request logging at the default level (info)',
  (t) => {
    it('logs one JSON line per request with its id, path and status, but no query string or body', async () => {
      accessLines.length = 0;
      const res = await t.call('health', 'ping', { echo: 'Margaret Thatcher 943 476 5919' });
      await t.raw('/api/health/ping?patient=Jane+Doe', { method: 'GET' });
      await settle();
      const ping = parsed(accessLines).find((e) => e.path === '/api/health/ping' && e.method === 'POST');
      expect(ping).toMatchObject({ level: 'info', msg: 'request', method: 'POST', status: 200 });
      expect(ping.requestId).toBe(res.headers.get('x-request-id'));
      const all = accessLines.join('\n');
      expect(all).not.toContain('Thatcher');
      expect(all).not.toContain('Jane');
      expect(all).not.toContain('476 5919');
      expect(all).not.toContain('?');
    });

    it('never logs the health and readiness probes', async () => {
      accessLines.length = 0;
      await t.raw('/healthz');
      await t.raw('/readyz');
      await t.raw('/healthz?x=1');
      await t.call('health', 'ping', { echo: 'x' });
      await settle();
      const paths = parsed(accessLines)
        .filter((e) => e.msg === 'request')
        .map((e) => e.path);
      expect(paths).toEqual(['/api/health/ping']);
    });

    it('logs the status of a refused request', async () => {
      accessLines.length = 0;
      await t.call('health', 'ping', { echo: 7 });
      await settle();
      const entry = parsed(accessLines).find((e) => e.path === '/api/health/ping');
      expect(entry?.status).toBe(400);
    });
  },
  () => ({ logger: createLogger('info', (line) => accessLines.push(line)) }),
);
