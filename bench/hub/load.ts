/**
 * One load-generator process of the hub benchmark (bench/hub/run.ts starts one or more and merges what
 * they measure). It connects its lockers, boots them, prints "ready", and on "go" (stdin) sends each
 * locker's TemperatureReadings open loop for warm-up + measured seconds, then waits (bounded) for the
 * last answers, writes its latency samples to `<out>.lat` and `<out>.probe` (Float64Array, ms) and
 * prints one JSON line of counts.
 *
 *   bun bench/hub/load.ts <config as JSON>
 *
 * Kept cheap so that it measures the server, not itself: each locker has a random phase in the period
 * and one 1 ms tick walks the lockers in phase order (no timer per locker, no bursts of aligned
 * timers); a frame is one template string; send times and samples go to preallocated typed arrays;
 * an answer's id is read from the text without JSON.parse.
 */

export type LoadConfig = {
  /** Where the lockers connect. */
  url: string;
  /** Each locker's access token (the echo ignores them). */
  tokens: string[];
  /** Lockers connected to `probeUrl` (a bare echo) at the same rate, to measure this machine's floor meanwhile. */
  probeUrl?: string;
  probes: number;
  /** Readings a second per locker, readings per call. */
  rate: number;
  perMessage: number;
  warmupSeconds: number;
  seconds: number;
  /** Samples are written to `<out>.lat` and `<out>.probe`. */
  out: string;
};

export type LoadResult = {
  sent: number;
  acked: number;
  errors: number;
  unanswered: number;
  /** How late sends left against their schedule, ms (the generator's own health). */
  lagP99: number;
  lagMax: number;
};

/** Outstanding calls remembered per locker; far more than the bench ever has in flight. */
const RING = 256;

type Group = { sockets: WebSocket[]; samples: Float64Array; count: number };

async function connect(url: string, tokens: string[], boot: boolean): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < tokens.length; start += 200) {
    await Promise.all(
      tokens.slice(start, start + 200).map(
        (token, j) =>
          new Promise<void>((resolve, reject) => {
            const i = start + j;
            const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } } as never);
            const timer = setTimeout(() => reject(new Error(`locker ${i} did not boot within 60 s`)), 60_000);
            const done = () => {
              clearTimeout(timer);
              resolve();
            };
            ws.onopen = () => {
              if (!boot) return done();
              ws.onmessage = done;
              ws.send(
                JSON.stringify([2, 'b', 'BootNotification', { vendor: 'bench', model: 'b', firmwareVersion: '1' }]),
              );
            };
            ws.onerror = () => reject(new Error(`locker ${i} could not connect to ${url}`));
            sockets[i] = ws;
          }),
      ),
    );
  }
  return sockets;
}

/** Connects and boots every locker; the returned function runs the load. */
async function prepare(config: LoadConfig): Promise<() => Promise<LoadResult>> {
  const { rate, perMessage, warmupSeconds, seconds } = config;
  const periodMs = (perMessage / rate) * 1000;
  const lockers = await connect(config.url, config.tokens, true);
  const probes = config.probeUrl
    ? await connect(
        config.probeUrl,
        Array.from({ length: config.probes }, () => 'x'),
        false,
      )
    : [];
  const callsPerSocket = Math.ceil(((warmupSeconds + seconds) * 1000) / periodMs) + 2;
  const groups: Group[] = [lockers, probes].map((sockets) => ({
    sockets,
    samples: new Float64Array(sockets.length * callsPerSocket),
    count: 0,
  }));
  const all = [...lockers.map((ws) => ({ ws, group: 0 })), ...probes.map((ws) => ({ ws, group: 1 }))];
  const n = all.length;
  const sentAt = new Float64Array(n * RING);
  const seq = new Int32Array(n);
  const lag = new Float64Array(n * callsPerSocket);
  let lagCount = 0;
  let sent = 0;
  let acked = 0;
  let errors = 0;
  let outstanding = 0;
  let measureFrom = Number.POSITIVE_INFINITY;
  let measureTo = Number.POSITIVE_INFINITY;

  // Each socket's phase in the period, random; the tick walks them in phase order, so the k-th send of
  // the run is due at cycle × period + phase of the socket at position k mod n.
  const phase = Float64Array.from({ length: n }, () => Math.random() * periodMs);
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => (phase[a] ?? 0) - (phase[b] ?? 0));

  // Reading values as text, so a frame is built by concatenation only.
  const values = Array.from({ length: 30 }, (_, k) => String(19 + k / 10));
  const timeBase = Date.now();

  for (let s = 0; s < n; s++) {
    const entry = all[s];
    if (!entry) continue;
    const group = groups[entry.group] as Group;
    const base = s * RING;
    entry.ws.onmessage = (m: MessageEvent) => {
      const at = performance.now();
      const text = m.data as string;
      // "[3,"<seq>",…" or "[4,"<seq>",…"; anything else (a call from the hub) is not an answer.
      const kind = text.charCodeAt(1);
      if (kind !== 51 && kind !== 52) return;
      const end = text.indexOf('"', 4);
      const id = Number(text.slice(4, end));
      const t0 = sentAt[base + (id % RING)] ?? 0;
      outstanding--;
      if (kind !== 51) errors++;
      else if (entry.group === 0) acked += perMessage;
      if (t0 >= measureFrom && t0 < measureTo) group.samples[group.count++] = at - t0;
    };
  }

  return async () => {
    await new Promise<void>((resolve) => {
      const begin = performance.now();
      measureFrom = begin + warmupSeconds * 1000;
      measureTo = measureFrom + seconds * 1000;
      let k = 0;
      const tick = setInterval(() => {
        const now = performance.now();
        while (true) {
          const pos = k % n;
          const s = order[pos] as number;
          const due = begin + Math.floor(k / n) * periodMs + (phase[s] as number);
          if (due > now) break;
          if (due >= measureTo) {
            clearInterval(tick);
            resolve();
            return;
          }
          k++;
          const i = (seq[s] as number) + 1;
          seq[s] = i;
          const first = timeBase + i * perMessage;
          let readings = `{"created":${first},"value":${values[i % 30]}}`;
          for (let r = 1; r < perMessage; r++) readings += `,{"created":${first + r},"value":${values[(i + r) % 30]}}`;
          const sentNow = performance.now();
          sentAt[s * RING + (i % RING)] = sentNow;
          if (due >= measureFrom) lag[lagCount++] = sentNow - due;
          all[s]?.ws.send(
            `[2,"${i}","TemperatureReadings",{"eventId":"e${i}","seq":${i},"created":${first},"readings":[${readings}]}]`,
          );
          outstanding++;
          if (all[s]?.group === 0) sent += perMessage;
        }
      }, 1);
    });
    // Let the last answers arrive (bounded).
    const drainUntil = Date.now() + 15_000;
    while (outstanding > 0 && Date.now() < drainUntil) await Bun.sleep(20);
    for (const { ws } of all) ws.close();
    await Bun.write(`${config.out}.lat`, groups[0]?.samples.subarray(0, groups[0].count) ?? new Float64Array());
    await Bun.write(`${config.out}.probe`, groups[1]?.samples.subarray(0, groups[1].count) ?? new Float64Array());
    const lags = lag.subarray(0, lagCount).sort();
    return {
      sent,
      acked,
      errors,
      unanswered: outstanding,
      lagP99: lags[Math.floor(lags.length * 0.99)] ?? 0,
      lagMax: lags[lags.length - 1] ?? 0,
    };
  };
}

if (import.meta.main) {
  const config = JSON.parse(await Bun.file(process.argv[2] as string).text()) as LoadConfig;
  const start = await prepare(config);
  console.log('ready');
  const input = console[Symbol.asyncIterator]();
  while (true) {
    const line = await input.next();
    if (line.done) process.exit(1);
    if (line.value.trim() === 'go') break;
  }
  console.log(JSON.stringify(await start()));
  // Stay alive (its CPU time readable) until the bench has read everything and closes stdin.
  while (!(await input.next()).done);
  process.exit(0);
}
