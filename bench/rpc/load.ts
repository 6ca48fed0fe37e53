/**
 * The load, in its own process: N concurrent keep-alive clients, each sending its next request when the
 * last one is answered, for S seconds after W seconds of warm-up. Prints one JSON line: requests (and
 * warm-up requests), errors, seconds, latency percentiles in ms, and this process's CPU over the
 * measured seconds as a share of one core (near 1: the load generator itself is the limit).
 *
 *   bun bench/rpc/load.ts <url> <clients> <seconds> <warmup> [cookie] [bodyJson]
 */
import { benchOrigin } from './mode.ts';

const [url, clientsArg, secondsArg, warmupArg, cookie = '', body = '{}'] = process.argv.slice(2);
const clients = Number(clientsArg);
const headers: Record<string, string> = { 'content-type': 'application/json', origin: benchOrigin() };
if (cookie) headers.cookie = cookie;

async function run(seconds: number, record: boolean) {
  const latencies: number[] = [];
  let count = 0;
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const res = await fetch(url as string, { method: 'POST', headers, body, keepalive: true });
          await res.arrayBuffer();
          if (res.status !== 200) errors++;
        } catch {
          errors++;
        }
        count++;
        if (record) latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, errors, count };
}

const warmup = await run(Number(warmupArg), false);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const { latencies, errors } = await run(Number(secondsArg), true);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    warmupRequests: warmup.count,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50: at(50),
    p99: at(99),
    max: latencies.at(-1) ?? 0,
    loadCpu: (cpu.user + cpu.system) / 1e6 / seconds,
  }),
);
