import { afterAll, expect, it } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cluster/free-port.ts';

/** `npm run worker` as a process: its own /metrics and /healthz, and a clean stop on SIGTERM. */
const dataDir = mkdtempSync(join(tmpdir(), 'medlocker-worker-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('serves its metrics (job queue, build) and /healthz while it runs, and stops on SIGTERM', async () => {
  const port = await freePort();
  const worker = spawn(process.execPath, [join(import.meta.dir, 'worker.ts')], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, WORKER_METRICS_PORT: String(port), LOG_LEVEL: 'info' },
  });
  let output = '';
  worker.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"worker started"')) {
    if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`the worker did not start:\n${output}`);
    await Bun.sleep(100);
  }
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  expect(metrics).toContain('medlocker_build_info{');
  expect(metrics).toContain('medlocker_job_failures_total');
  expect(metrics).toContain('medlocker_db_info{kind="pglite"} 1');
  worker.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => worker.once('exit', resolve));
  expect(code).toBe(0);
}, 90_000);
