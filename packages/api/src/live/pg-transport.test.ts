import { describe, expect, it } from 'bun:test';
import { silentLogger } from '../log/logger.ts';
import { type ConsoleEvent, LiveHub } from './live.ts';
import { pgTransport } from './pg-transport.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('live pushes across api processes [postgres]', () => {
  it('reach the consoles of every process through LISTEN/NOTIFY, the sender’s own included', async () => {
    const a = new LiveHub(await pgTransport(url as string, silentLogger));
    const b = new LiveHub(await pgTransport(url as string, silentLogger));
    try {
      const seen: string[] = [];
      a.onConsoleEvent((e: ConsoleEvent) => seen.push(`a:${e.message.action}`));
      b.onConsoleEvent((e: ConsoleEvent) => seen.push(`b:${e.message.action}`));
      b.onLockerCommand((c) => seen.push(`b:${c.kind}:${c.machineId}`));
      a.publish({
        businessId: 'b1',
        message: { action: 'statusUpdate', params: { machineId: 'm1', contents: 'loaded' } },
      });
      a.commandLocker({ machineId: 'm1', kind: 'disconnect', reason: 'test' });
      const until = Date.now() + 3000;
      while (seen.length < 3 && Date.now() < until) await Bun.sleep(10);
      expect(seen.sort()).toEqual(['a:statusUpdate', 'b:disconnect:m1', 'b:statusUpdate']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
