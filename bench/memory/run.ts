/**
 * Memory of the server on PGlite: starts packages/api/src/main.ts on a fresh DATA_DIR (first start:
 * migrate and seed the demo), samples the RSS of its process tree every 100 ms, and reports
 * - peak: the highest RSS from spawn until ready and settled,
 * - idle: the median RSS over the last 5 s after `--settle` seconds (default 30) without requests,
 * then stops it (SIGTERM) and does the same for a second start on the now-seeded directory.
 * Goals: idle ≤ 250 MB, peak ≤ 700 MB.
 *
 * Run: `bun bench/memory/run.ts [--settle 30] [--markdown]`. Linux only (reads /proc).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../packages/api/src/cluster/free-port.ts';

const GOAL_IDLE_MB = 250;
const GOAL_PEAK_MB = 700;
const repo = resolve(import.meta.dir, '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const settleSeconds = Number(arg('--settle') ?? 30);
const extraEnv = Object.fromEntries(
  (arg('--env') ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);

/** RSS in bytes of `pid` and every descendant, from /proc. */
function treeRss(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

type Run = { label: string; readyMs: number; peakMb: number; peakAtMs: number; idleMb: number };

async function measure(label: string, dataDir: string): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(join(repo, 'node_modules/.bin/bun'), ['packages/api/src/main.ts'], {
    cwd: repo,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid as number;
  const samples: { t: number; rss: number }[] = [];
  const sampler = setInterval(() => samples.push({ t: performance.now() - started, rss: treeRss(pid) }), 100);
  let readyMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label}: the server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      readyMs = performance.now() - started;
      break;
    }
    await Bun.sleep(100);
  }
  // One sign-in page load, as the first visitor would: index.html and its assets.
  await fetch(`http://127.0.0.1:${port}/auth/login`, { headers: { 'accept-encoding': 'br' } }).then((r) => r.text());
  await Bun.sleep(settleSeconds * 1000);
  clearInterval(sampler);
  const end = performance.now() - started;
  const idle = samples.filter((s) => s.t >= end - 5000).map((s) => s.rss);
  const peak = samples.reduce((a, s) => (s.rss > a.rss ? s : a), { t: 0, rss: 0 });
  child.kill('SIGTERM');
  await new Promise((ok) => child.once('exit', ok));
  const run = { label, readyMs, peakMb: mb(peak.rss), peakAtMs: peak.t, idleMb: mb(median(idle)) };
  console.log(`  (${label}: peak ${run.peakMb.toFixed(0)} MB, idle ${run.idleMb.toFixed(0)} MB)`);
  return run;
}

const dataDir = mkdtempSync(join(tmpdir(), 'medlocker-memory-'));
const runs: Run[] = [];
try {
  runs.push(await measure('first start (migrate + seed)', dataDir));
  runs.push(await measure('second start (seeded data)', dataDir));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`Server RSS (process tree) on PGlite, idle measured after ${settleSeconds} s settled:`);
for (const r of runs) {
  console.log(
    `  ${r.label.padEnd(30)} ready in ${(r.readyMs / 1000).toFixed(1)} s   peak ${r.peakMb.toFixed(0)} MB (at ${(r.peakAtMs / 1000).toFixed(1)} s)   idle ${r.idleMb.toFixed(0)} MB`,
  );
}
const peak = Math.max(...runs.map((r) => r.peakMb));
const idle = Math.max(...runs.map((r) => r.idleMb));
console.log(
  `  Goals: peak ≤ ${GOAL_PEAK_MB} MB: ${peak <= GOAL_PEAK_MB ? 'MET' : 'NOT MET'} (${peak.toFixed(0)}); idle ≤ ${GOAL_IDLE_MB} MB: ${idle <= GOAL_IDLE_MB ? 'MET' : 'NOT MET'} (${idle.toFixed(0)})`,
);
if (process.argv.includes('--markdown')) {
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  for (const r of runs) {
    console.log(
      `| ${date} UTC | ${r.label} | ${(r.readyMs / 1000).toFixed(1)} s | ${r.peakMb.toFixed(0)} MB | ${r.idleMb.toFixed(0)} MB |`,
    );
  }
}
