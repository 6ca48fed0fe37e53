import type { SimLocker } from './locker.ts';
import { applyStep, parseStep } from './scenario.ts';

/**
 * A small control API for QA, on loopback only:
 * - `GET  /lockers` — every locker's state;
 * - `POST /lockers/{n}` with a step, e.g. `{"do":"alarm","code":"EM_0016"}`,
 *   `{"do":"networkDrop","seconds":300}`, the keypad `{"do":"enterPin","pin":"12345678"}` then
 *   `{"do":"collectBag"}` (n is 1-based, or `all`); `answers` holds what keypad steps got.
 */
export function startControl(lockers: SimLocker[], port: number) {
  return Bun.serve({
    hostname: '127.0.0.1',
    port,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/lockers') return Response.json(lockers.map((l) => l.view()));
      const match = /^\/lockers\/(all|\d+)$/.exec(url.pathname);
      if (request.method !== 'POST' || !match) return Response.json({ error: 'not found' }, { status: 404 });
      const targets = match[1] === 'all' ? lockers : [lockers[Number(match[1]) - 1]];
      if (targets.some((l) => !l)) return Response.json({ error: 'no such locker' }, { status: 404 });
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return Response.json({ error: 'send a JSON body' }, { status: 400 });
      }
      const step = parseStep(body);
      if (typeof step === 'string') return Response.json({ error: step }, { status: 400 });
      const answers = await Promise.all(targets.map((locker) => (locker ? applyStep(locker, step) : undefined)));
      return Response.json({
        ok: true,
        lockers: targets.map((l) => l?.view()),
        ...(answers.some((a) => a !== undefined) ? { answers } : {}),
      });
    },
  });
}
