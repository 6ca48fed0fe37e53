/**
 * The load, in its own process, for S seconds after W seconds of warm-up. Closed loop (default): N
 * concurrent keep-alive clients, each sending its next request when the last one is answered. Open loop
 * (a rate given): requests started at that many a second on a 1 ms tick whatever the answers, at most N
 * in flight (a request due while N are in flight is counted as skipped; after a stall of the tick the
 * requests due meanwhile go out together). Prints `measure`
 * when the warm-up ends and `measured` when the measured seconds end (a caller reading CPU around the
 * measured part only), then one JSON line: requests (and warm-up requests), errors, skipped, seconds,
 * latency percentiles in ms, and this process's CPU over the measured seconds as a share of one core
 * (near 1: the load generator itself is the limit).
 *
 *   bun bench/rpc/load.ts <url> <clients> <seconds> <warmup> [cookie] [bodyJson] [rate]
 */
import { benchOrigin } from './mode.ts';

const [url, clientsArg, secondsArg, warmupArg, cookie = '', body = '{}', rateArg = ''] = process.argv.slice(2);
const clients = Number(clientsArg);
const rate = Number(rateArg) || 0;
const headers: Record<string, string> = { 'content-type': 'application/json', origin: benchOrigin() };
if (cookie) headers.cookie = cookie;

type Tally = { latencies: number[]; errors: number; count: number; skipped: number };

/** One request; its latency recorded when `record`. */
async function request(tally: Tally, record: boolean) {
  const t0 = performance.now();
  try {
    const res = await fetch(url as string, { method: 'POST', headers, body, keepalive: true });
    await res.arrayBuffer();
    if (res.status !== 200) tally.errors++;
  } catch {
    tally.errors++;
  }
  tally.count++;
  if (record) tally.latencies.push(performance.now() - t0);
}

async function closedLoop(seconds: number, record: boolean): Promise<Tally> {
  const tally: Tally = { latencies: [], errors: 0, count: 0, skipped: 0 };
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) await request(tally, record);
    }),
  );
  return tally;
}

async function openLoop(seconds: number, record: boolean): Promise<Tally> {
  const tally: Tally = { latencies: [], errors: 0, count: 0, skipped: 0 };
  const begin = performance.now();
  const end = begin + seconds * 1000;
  let started = 0;
  let inFlight = 0;
  let ended = false;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = Math.min(performance.now(), end);
      const due = Math.floor(((now - begin) * rate) / 1000);
      for (; started < due; started++) {
        if (inFlight >= clients) {
          tally.skipped++;
          continue;
        }
        inFlight++;
        void request(tally, record).then(() => {
          inFlight--;
          if (ended && inFlight === 0) resolve();
        });
      }
      if (now >= end) {
        clearInterval(tick);
        ended = true;
        if (inFlight === 0) resolve();
      }
    }, 1);
  });
  return tally;
}

const run = rate > 0 ? openLoop : closedLoop;
const warmup = await run(Number(warmupArg), false);
console.log('measure');
const started = performance.now();
const cpuBefore = process.cpuUsage();
const { latencies, errors, skipped } = await run(Number(secondsArg), true);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
console.log('measured');
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    warmupRequests: warmup.count,
    errors,
    skipped,
    seconds,
    rps: latencies.length / seconds,
    p50: at(50),
    p99: at(99),
    max: latencies.at(-1) ?? 0,
    loadCpu: (cpu.user + cpu.system) / 1e6 / seconds,
  }),
);
