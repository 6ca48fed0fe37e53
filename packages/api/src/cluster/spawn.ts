// Runs real api processes (packages/api/src/main.ts, as `npm start` does) on one PostgreSQL database:
// the multi-process tests, and any script that needs a few servers side by side.

import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './free-port.ts';

const repo = resolve(import.meta.dir, '../../../..');
const bun = resolve(repo, 'node_modules/.bin/bun');

/** One running api process. */
export type ApiProcess = {
  /** The process's name in messages (`A`, `B`, …). */
  name: string;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `ws://127.0.0.1:<port>` */
  ws: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` (SIGKILL by default) and resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  exited: Promise<{ code: number | null; signal: string | null }>;
};

export type SpawnOptions = {
  /** The database every process uses (DATABASE_URL). */
  databaseUrl: string;
  /** More environment for the processes (NODE_ENV=test, DEMO_FLEET=0, LOG_LEVEL=warn unless given here). */
  env?: Record<string, string>;
  /** How long to wait for /readyz (default 60 s). */
  readyWithinMs?: number;
};

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every process this module started that is still running (also done when this process exits). */
export function killAll(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
}

/**
 * Starts `names.length` api processes at once on `options.databaseUrl`, each on a free port, and
 * resolves when every one answers /readyz. Throws (after killing all of them) when one exits or is not
 * ready in time. Stop them with `stopAll` (or `killAll`) in an afterAll: none outlives the test run.
 */
export async function spawnApis(names: string[], options: SpawnOptions): Promise<ApiProcess[]> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killAll);
  }
  const started = await Promise.all(names.map(async (name) => startOne(name, await freePort(), options)));
  try {
    await Promise.all(started.map((p) => waitReady(p, options.readyWithinMs ?? 60_000)));
  } catch (error) {
    await Promise.all(started.map((p) => p.kill()));
    throw error;
  }
  return started;
}

/** Stops processes with SIGTERM (SIGKILL after `graceMs`), resolving when all have exited. */
export async function stopAll(processes: ApiProcess[], graceMs = 5_000): Promise<void> {
  await Promise.all(
    processes.map(async (p) => {
      const timer = setTimeout(() => void p.kill('SIGKILL'), graceMs);
      await p.kill('SIGTERM');
      clearTimeout(timer);
    }),
  );
}

function startOne(name: string, port: number, options: SpawnOptions): ApiProcess {
  const child = spawn(bun, ['packages/api/src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEMO_FLEET: '0',
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: string | null }>((ok) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      ok({ code, signal });
    }),
  );
  return {
    name,
    pid: child.pid ?? 0,
    port,
    url: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    output: () => output,
    exited,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

async function waitReady(p: ApiProcess, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  let gone = false;
  void p.exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`api process ${p.name} exited at start:\n${p.output()}`);
    const ready = await fetch(`${p.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`api process ${p.name} not ready in ${withinMs} ms:\n${p.output()}`);
    await Bun.sleep(100);
  }
}
