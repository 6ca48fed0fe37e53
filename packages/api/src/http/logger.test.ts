import { expect, it } from 'bun:test';
import { describeApi } from '../testing.ts';
import { createLogger } from './logger.ts';

const lines: string[] = [];

describeApi(
  'request logging',
  (t) => {
    it('logs one JSON line per request with its id, path and status, but no query string or body', async () => {
      lines.length = 0;
      const res = await t.call('health', 'ping', { echo: 'Margaret Thatcher 943 476 5919' });
      await t.raw('/healthz?patient=Jane+Doe');
      await Bun.sleep(5); // onAfterResponse runs once the response is handed over
      const entries = lines.map((l) => JSON.parse(l));
      const ping = entries.find((e) => e.path === '/api/health/ping');
      expect(ping).toMatchObject({ level: 'info', msg: 'request', method: 'POST', status: 200 });
      expect(ping.requestId).toBe(res.headers.get('x-request-id'));
      expect(lines.join('\n')).not.toContain('Thatcher');
      expect(lines.join('\n')).not.toContain('Jane');
      expect(lines.join('\n')).not.toContain('476 5919');
    });

    it('logs the status of a refused request', async () => {
      lines.length = 0;
      await t.call('health', 'ping', { echo: 7 });
      await Bun.sleep(5);
      const entry = lines.map((l) => JSON.parse(l)).find((e) => e.path === '/api/health/ping');
      expect(entry?.status).toBe(400);
    });
  },
  () => ({ logger: createLogger('info', (line) => lines.push(line)) }),
);
