// `npm run cluster`: CLUSTER_SIZE api processes (default 3) on the PostgreSQL named by DATABASE_URL, behind
// HAProxy on PORT (default 3000), with WebSockets and readiness checks on /readyz.
//
// Prints one JSON line on stdout per part as it comes up (the processes' own output goes to stderr):
//   {"role":"api","pid":…,"port":…}   then   {"role":"balancer","pid":…,"url":"http://localhost:3000"}
// An api process, the worker or HAProxy that dies (a crash, `kill -9`) is started again (HAProxy after
// CLUSTER_BALANCER_RESTART_SECONDS, default 1), and printed again with "restarted":true. The first api
// process migrates and seeds the database alone; the others start once it is healthy, so migrations run
// once (and, should two ever meet, Kysely's migrator holds an advisory lock).
// Only the first runs the demo fleet (unless DEMO_FLEET is set). Jobs run in the api processes; with
// CLUSTER_WORKER=1 they run instead in one `npm run worker` process ({"role":"worker","pid":…}).
// SIGINT (Ctrl-C) or SIGTERM stops everything gracefully (each process group, killed after 12 s), and the
// generated HAProxy configuration's temporary directory is removed. (Killed itself with SIGKILL, it
// cannot: its children then run on; stop their process groups by the pids it printed.)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bun, ensureInstall, root } from './ensure-install.mjs';

const env = process.env;
const fail = (message) => {
  console.error(`\n  ${message}\n`);
  process.exit(2);
};

const databaseUrl = env.DATABASE_URL?.trim();
if (!databaseUrl || !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
  fail(
    'DATABASE_URL must name a PostgreSQL database (postgres://user@host:5432/name): the api processes of a cluster share one PostgreSQL (PGlite belongs to one process).',
  );
}
const integer = (name, fallback, min, max) => {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    fail(`${name} must be a whole number from ${min} to ${max}, not '${raw}'.`);
  return n;
};
const size = integer('CLUSTER_SIZE', 3, 1, 64);
const port = integer('PORT', 3000, 1, 65535);
const firstApiPort = integer('CLUSTER_API_PORT', port + 1, 1, 65535 - size);
const haproxy = env.HAPROXY?.trim() || ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((p) => existsSync(p));
if (!haproxy || !existsSync(haproxy)) {
  fail(
    `HAProxy is not installed (looked for ${haproxy ?? '/usr/sbin/haproxy'}). Install it from the system's packages: apt-get install -y haproxy (or set HAPROXY to its path).`,
  );
}

ensureInstall();

/** Every child process started, by name, while it runs. */
const running = new Map();
let stopping = false;
const tempDir = mkdtempSync(join(tmpdir(), 'medlocker-cluster-'));

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a process in its own process group (a terminal's Ctrl-C reaches it once, from here); its output goes to stderr. */
function start(name, cmd, args, extraEnv = {}) {
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.pipe(process.stderr, { end: false });
  child.stderr.pipe(process.stderr, { end: false });
  running.set(name, child);
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (running.get(name) === child) running.delete(name);
      resolve({ code, signal });
    });
    child.on('error', (error) => {
      console.error(`  ${name}: ${error.message}`);
      if (running.get(name) === child) running.delete(name);
      resolve({ code: 1, signal: null });
    });
  });
  return child;
}

/** Whether `url` answers 200 within `ms`, retried every 200 ms while `alive()` holds. */
async function healthy(url, ms, alive) {
  const until = Date.now() + ms;
  while (Date.now() < until && alive()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return false;
}

const alive = (child) => child.exitCode === null && child.signalCode === null;

/** One api process on its port; started again when it dies while the cluster runs (after it once came up). */
async function startApi(index, restarted = false) {
  const apiPort = firstApiPort + index;
  const name = `api${index + 1}`;
  const child = start(name, bun, ['packages/api/src/main.ts'], {
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    // HAProxy's X-Forwarded-For is believed: rate limits and logs see the client, not the balancer.
    TRUST_PROXY: env.TRUST_PROXY?.trim() || 'loopback',
    // A stopping process fails /readyz this long first: HAProxy (checks every second, down after two
    // failures) takes it out of rotation before it stops taking requests, so a restart loses nothing.
    SHUTDOWN_DRAIN_SECONDS: env.SHUTDOWN_DRAIN_SECONDS ?? '3',
    DEMO_FLEET: env.DEMO_FLEET ?? (index === 0 ? '1' : '0'),
    // One local Judopay per process could not share its payments: a cluster uses a real Judopay.
    JUDOPAY_LOCAL: env.JUDOPAY_LOCAL ?? '0',
    ...(env.CLUSTER_WORKER === '1' ? { JOBS: 'off' } : {}),
  });
  if (!(await healthy(`http://127.0.0.1:${apiPort}/healthz`, 120_000, () => alive(child) && !stopping))) {
    if (stopping) return;
    child.kill('SIGKILL');
    throw new Error(`${name} (port ${apiPort}) did not answer /healthz; see its messages above.`);
  }
  print({ role: 'api', pid: child.pid, port: apiPort, ...(restarted ? { restarted: true } : {}) });
  child.exited.then(async ({ code, signal }) => {
    if (stopping) return;
    console.error(`  ${name} (pid ${child.pid}) stopped (${signal ?? `exit ${code}`}); starting it again…`);
    await sleep(500);
    if (stopping) return;
    startApi(index, true).catch((error) => {
      console.error(`  ${error.message}`);
      stop(1);
    });
  });
}

/** The job runner alone (CLUSTER_WORKER=1), started again when it dies. */
function startWorker(restarted = false) {
  const worker = start('worker', bun, ['packages/api/src/worker.ts']);
  print({ role: 'worker', pid: worker.pid, ...(restarted ? { restarted: true } : {}) });
  worker.exited.then(async ({ code, signal }) => {
    if (stopping) return;
    console.error(`  worker (pid ${worker.pid}) stopped (${signal ?? `exit ${code}`}); starting it again…`);
    await sleep(500);
    if (!stopping) startWorker(true);
  });
}

function haproxyConfig() {
  const servers = Array.from(
    { length: size },
    (_, i) => `  server api${i + 1} 127.0.0.1:${firstApiPort + i} check inter 1s fall 2 rise 1`,
  );
  return `# Generated by scripts/cluster.mjs; removed when the cluster stops.
global
  # maxconn unset: HAProxy derives it from the open-files limit (ulimit -n).
  log stderr format short local0 warning

defaults
  mode http
  log global
  option dontlognull
  option redispatch 1
  retries 3
  timeout connect 3s
  timeout client 60s
  timeout server 60s
  # A WebSocket, once upgraded, stays open while either side talks (lockers send heartbeats).
  timeout tunnel 1h
  timeout client-fin 5s

frontend medlocker
  bind ${env.HOST?.trim() || '0.0.0.0'}:${port}
  # The client's address as HAProxy saw it, replacing any X-Forwarded-For the client sent: appended to
  # one, a client could name its own address and slip past the per-address limits.
  http-request set-header X-Forwarded-For %[src]
  default_backend api

backend api
  # Lockers' and consoles' sockets are long-lived: each new one goes to the process holding the fewest.
  balance leastconn
  # A request that meets a process which just died (sent on a kept-alive connection that it reset or closed
  # unanswered) goes to another process when repeating it is safe: a GET or HEAD, or a request with an
  # Idempotency-Key (the integration API's). Any other gets the 502: it may have been carried out.
  retry-on conn-failure empty-response
  http-request disable-l7-retry if !{ method GET HEAD } !{ req.hdr(idempotency-key) -m found }
  # /readyz: a process that lost its database, or is stopping, gets no new requests.
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
${servers.join('\n')}
`;
}

/** Seconds a dead HAProxy stays down before it is started again (CLUSTER_BALANCER_RESTART_SECONDS; chaos drills set 10). */
const balancerRestartSeconds = integer('CLUSTER_BALANCER_RESTART_SECONDS', 1, 0, 3600);

async function startBalancer(restarted = false) {
  const config = join(tempDir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig());
  const child = start('balancer', haproxy, ['-db', '-f', config]);
  const url = `http://localhost:${port}`;
  if (!(await healthy(`http://127.0.0.1:${port}/healthz`, 30_000, () => alive(child) && !stopping))) {
    if (stopping) return;
    throw new Error(`HAProxy did not answer on port ${port}; see its messages above.`);
  }
  print({ role: 'balancer', pid: child.pid, url, ...(restarted ? { restarted: true } : {}) });
  child.exited.then(async ({ code, signal }) => {
    if (stopping) return;
    console.error(
      `  HAProxy (pid ${child.pid}) stopped (${signal ?? `exit ${code}`}); starting it again in ${balancerRestartSeconds} s…`,
    );
    await sleep(balancerRestartSeconds * 1000);
    if (stopping) return;
    startBalancer(true).catch((error) => {
      console.error(`  ${error.message}`);
      stop(1);
    });
  });
}

/** Signals every process group, waits for all (SIGKILL after 12 s), removes the temp dir, exits. */
async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  const children = [...running.values()];
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const killer = setTimeout(() => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 12_000);
  await Promise.all(children.map((c) => c.exited));
  clearTimeout(killer);
  rmSync(tempDir, { recursive: true, force: true });
  process.exit(exitCode);
}

let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!firstSignalAt) {
      firstSignalAt = Date.now();
      console.error(`\n  ${signal}: stopping the cluster…`);
    } else if (Date.now() - firstSignalAt > 1000) {
      // A second Ctrl-C, later: now. (Within a second it is the same one twice: `npm run` forwards the
      // terminal's Ctrl-C to this script, which the terminal has already sent it.)
      for (const child of running.values()) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
    }
    stop(0);
  });
}

try {
  // The console and the patient page the api serves, built once if missing (CLUSTER_SKIP_BUILD=1: not at all).
  if (env.CLUSTER_SKIP_BUILD !== '1') {
    for (const [dir, script] of [
      ['packages/console/dist', 'packages/console/build.ts'],
      ['packages/patient/dist', 'packages/patient/build.ts'],
    ]) {
      if (existsSync(join(root, dir, 'index.html')) || stopping) continue;
      const built = await start(`build ${dir}`, bun, [script]).exited;
      if (built.code !== 0 && !stopping) throw new Error(`${script} failed; see the messages above.`);
    }
  }
  // The first migrates and seeds alone; then the others, the worker and the balancer together.
  await startApi(0);
  if (!stopping) {
    const rest = Array.from({ length: size - 1 }, (_, i) => startApi(i + 1));
    if (env.CLUSTER_WORKER === '1') startWorker();
    await Promise.all([...rest, startBalancer()]);
  }
} catch (error) {
  console.error(`\n  ${error.message}\n`);
  await stop(1);
}
