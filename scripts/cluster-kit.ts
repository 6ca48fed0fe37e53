/**
 * Runs `scripts/cluster.mjs` from a test or a bench and follows its JSON lines: the balancer's URL, the
 * api processes by port (with their current pid; a restarted one replaces its predecessor), every pid
 * ever printed, and a way to wait for the next line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ClusterLine =
  | { role: 'balancer'; pid: number; url: string }
  | { role: 'api'; pid: number; port: number; restarted?: boolean }
  | { role: 'worker'; pid: number };

export type RunningCluster = {
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe' | 'inherit'>;
  /** The balancer's base URL (http://localhost:PORT). */
  url: string;
  balancerPid: number;
  /** The api processes: port → pid now. */
  apis: Map<number, number>;
  /** Every pid the cluster has printed, restarted processes included. */
  pids: Set<number>;
  /** Resolves with the next line matching `match`, within `ms`. */
  next(match: (line: ClusterLine) => boolean, ms?: number): Promise<ClusterLine>;
  /**
   * Signals the cluster script and waits for it to exit; returns its exit code. Not exited within `ms`:
   * every process it printed is killed, then it. (Never SIGKILL the script first: its children would live on.)
   */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<number | null>;
};

const script = join(import.meta.dir, 'cluster.mjs');

/**
 * A port for a test's cluster (HAProxy on it, the api processes on the next ones): below Linux's
 * ephemeral range (32768-60999), where an outgoing connection's local port could hold one of them.
 */
export const testClusterPort = () => 20_000 + Math.floor(Math.random() * 12_000);

export async function startCluster(opts: {
  databaseUrl: string;
  size: number;
  port: number;
  env?: Record<string, string>;
  /** Where the processes' own output goes (default: this process's stderr; 'ignore' drops it). */
  output?: 'inherit' | 'ignore';
  ms?: number;
}): Promise<RunningCluster> {
  const proc = Bun.spawn(['node', script], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: opts.output === 'ignore' ? 'pipe' : 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      CLUSTER_SIZE: String(opts.size),
      PORT: String(opts.port),
      CLUSTER_SKIP_BUILD: '1',
      DEMO_FLEET: '0',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  });
  // With output 'ignore', what the processes print is drained (a full pipe would block the cluster), and
  // its last 8 KB kept for the error when the cluster never comes up.
  let lastOutput = '';
  if (opts.output === 'ignore' && proc.stderr instanceof ReadableStream) {
    const reader = proc.stderr.getReader();
    const decoder = new TextDecoder();
    (async () => {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        lastOutput = (lastOutput + decoder.decode(read.value)).slice(-8192);
      }
    })();
  }
  const apis = new Map<number, number>();
  const pids = new Set<number>();
  const seen: ClusterLine[] = [];
  const waiters: { match: (l: ClusterLine) => boolean; resolve: (l: ClusterLine) => void }[] = [];
  let balancer: { url: string; pid: number } | undefined;
  let ended = false;
  const readAll = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    const reader = proc.stdout.getReader();
    while (true) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      text += decoder.decode(chunk);
      let at = text.indexOf('\n');
      while (at >= 0) {
        const raw = text.slice(0, at).trim();
        text = text.slice(at + 1);
        at = text.indexOf('\n');
        if (!raw.startsWith('{')) continue;
        const line = JSON.parse(raw) as ClusterLine;
        pids.add(line.pid);
        if (line.role === 'api') apis.set(line.port, line.pid);
        if (line.role === 'balancer') balancer = { url: line.url, pid: line.pid };
        const waiter = waiters.findIndex((w) => w.match(line));
        if (waiter >= 0) waiters.splice(waiter, 1)[0]?.resolve(line);
        else seen.push(line);
      }
    }
    ended = true;
  })();
  const next = (match: (l: ClusterLine) => boolean, ms = 60_000) => {
    const i = seen.findIndex(match);
    if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0] as ClusterLine);
    return new Promise<ClusterLine>((resolve, reject) => {
      if (ended) return reject(new Error('the cluster script has exited'));
      const timer = setTimeout(() => reject(new Error(`no such cluster line within ${ms / 1000} s`)), ms);
      waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  };
  const ms = opts.ms ?? 120_000;
  const deadline = Date.now() + ms;
  while (!(balancer && apis.size >= opts.size)) {
    if (ended || proc.exitCode !== null) {
      await Bun.sleep(100); // the last of its output
      throw new Error(
        `the cluster script exited (${proc.exitCode}) before it was up${lastOutput ? `:\n${lastOutput}` : ''}`,
      );
    }
    if (Date.now() > deadline) {
      proc.kill('SIGINT');
      throw new Error(`the cluster was not up within ${ms / 1000} s`);
    }
    await Bun.sleep(100);
  }
  // Lines read while waiting for the whole cluster are not "next" lines.
  seen.length = 0;
  const up = balancer as { url: string; pid: number };
  return {
    proc,
    url: up.url,
    balancerPid: up.pid,
    apis,
    pids,
    next,
    stop: async (signal = 'SIGINT', stopMs = 30_000) => {
      proc.kill(signal);
      const exited = await Promise.race([proc.exited, Bun.sleep(stopMs).then(() => 'timeout' as const)]);
      await Promise.race([readAll, Bun.sleep(1000)]);
      if (exited === 'timeout') {
        // The script is stuck: take down what it started too (each in its own process group), then it.
        for (const pid of pids) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {}
        }
        proc.kill('SIGKILL');
        throw new Error(`the cluster script did not exit within ${stopMs / 1000} s of ${signal}`);
      }
      return proc.exitCode;
    },
  };
}

/** Whether a process with this pid exists (a zombie counts as gone: it runs nothing). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
