// `npm run cluster` end to end (PostgreSQL only: runs when TEST_DATABASE_URL is set, on a fresh database):
// two api processes behind HAProxy answer HTTP and a locker's WebSocket through the balancer, keep
// answering when one is killed with SIGKILL (which the script starts again), and leave no process behind
// after SIGINT.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { seed } from '../bench/hub/harness.ts';
import { createDb } from '../db/src/index.ts';
import { createFreshPostgresDatabase } from '../db/src/testing.ts';
import { processAlive, type RunningCluster, startCluster, testClusterPort } from './cluster-kit.ts';

const base = process.env.TEST_DATABASE_URL;

/** Boots a locker through the balancer and resolves with the hub's answer to its BootNotification. */
function bootLocker(url: string, token: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/machine`, {
      headers: { authorization: `Bearer ${token}` },
    } as never);
    const timer = setTimeout(() => reject(new Error('no answer to BootNotification within 10 s')), 10_000);
    ws.onopen = () =>
      ws.send(JSON.stringify([2, 'boot-1', 'BootNotification', { vendor: 'test', model: 't', firmwareVersion: '1' }]));
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data)) as unknown[];
      if (frame[1] !== 'boot-1') return;
      clearTimeout(timer);
      ws.close();
      resolve(frame);
    };
    ws.onerror = () => reject(new Error('the locker could not connect through the balancer'));
  });
}

describe.skipIf(!base)('npm run cluster [postgres]', () => {
  let fresh: Awaited<ReturnType<typeof createFreshPostgresDatabase>>;
  let cluster: RunningCluster | undefined;
  const port = testClusterPort();

  beforeAll(async () => {
    fresh = await createFreshPostgresDatabase(base as string);
  });
  afterAll(async () => {
    // A failed test: stopped as Ctrl-C does (a SIGKILL would leave the script's children running).
    if (cluster?.proc.exitCode === null) await cluster.stop('SIGINT').catch(() => {});
    await fresh?.drop();
  });

  test('two api processes behind HAProxy: HTTP and WebSocket, one killed, then Ctrl-C stops everything', async () => {
    cluster = await startCluster({ databaseUrl: fresh.url, size: 2, port, output: 'ignore' });
    expect(cluster.url).toBe(`http://localhost:${port}`);
    expect([...cluster.apis.keys()].sort()).toEqual([port + 1, port + 2]);

    // Migrated once, by the first process, before the second started.
    const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 2 });
    const { tokens } = await seed(opened, 1);
    await opened.close();

    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${cluster.url}/healthz`);
      expect(res.status).toBe(200);
    }
    const boot = await bootLocker(cluster.url, tokens[0] as string);
    expect(boot[0]).toBe(3);

    // One api process dies without warning: the balancer's next requests still get answers.
    const victimPort = port + 1;
    const victim = cluster.apis.get(victimPort) as number;
    process.kill(victim, 'SIGKILL');
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await fetch(`${cluster.url}/healthz`)).status);
    expect(answers.join(',')).toBe(Array(10).fill(200).join(','));
    expect((await bootLocker(cluster.url, tokens[0] as string))[0]).toBe(3);
    // The script starts it again on the same port.
    const again = await cluster.next((l) => l.role === 'api' && l.port === victimPort && l.restarted === true);
    expect(again.pid).not.toBe(victim);
    expect(processAlive(victim)).toBe(false);

    const pids = [...cluster.pids];
    expect(pids.length).toBe(4); // two apis, the restarted one, the balancer
    expect(await cluster.stop('SIGINT')).toBe(0);
    await Bun.sleep(200);
    expect(pids.filter(processAlive)).toEqual([]);
  }, 180_000);
});
