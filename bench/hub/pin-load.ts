/**
 * The PIN lockers of bench/hub/verify-pin.ts, in a process of their own: each connects, boots, then
 * reports as the other lockers do (TemperatureReadings at the same rate) while patients type PINs at it
 * (VerifyPin, right and wrong, at random times). Prints "ready"; on "go" (stdin) runs warm-up + measured
 * seconds, waits (bounded) for the last answers, writes the VerifyPin latencies to `<out>.pin`, the
 * readings' to `<out>.lat` and, with a probe, the bare echo's answers to the same VerifyPin calls at the
 * same moments to `<out>.probe` (Float64Array, ms), and prints one JSON line of counts.
 *
 *   bun bench/hub/pin-load.ts <config as JSON>
 *
 * A few hundred sockets at most, so plain timers and JSON.parse are cheap enough here; the readings
 * generator for the many (load.ts) is the one kept lean.
 */

export type PinLoadConfig = {
  url: string;
  /** Each PIN locker's access token and the PINs of the loaded orders at its machine. */
  lockers: { token: string; pins: string[] }[];
  /** VerifyPin calls a second, all lockers together; one in `wrongEvery` is a PIN no order has. */
  pinsPerSecond: number;
  wrongEvery: number;
  /** Readings a second per locker, readings per call (as load.ts). */
  rate: number;
  perMessage: number;
  warmupSeconds: number;
  seconds: number;
  /** Whether answers are checked (the hub: right PIN Accepted, wrong Invalid); the echo answers `{}`. */
  check: boolean;
  /** A bare echo that gets a copy of each VerifyPin at the same moment: this machine's floor meanwhile. */
  probeUrl?: string;
  out: string;
};

export type PinLoadResult = {
  pinsSent: number;
  /** Answers as expected (Accepted for a right PIN, Invalid for a wrong one), or any answer unchecked. */
  pinsAsExpected: number;
  /** Other answers by status (LockedOut, an error frame…). */
  pinsUnexpected: Record<string, number>;
  readingsCalls: number;
  readingsErrors: number;
  unanswered: number;
};

/** A wrong PIN: 9 then seven digits. verify-pin.ts makes the right ones start with 1, so they never meet. */
const wrongPin = () => `9${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

async function run(config: PinLoadConfig): Promise<() => Promise<PinLoadResult>> {
  const sockets = await Promise.all(
    config.lockers.map(
      (locker, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(config.url, { headers: { authorization: `Bearer ${locker.token}` } } as never);
          const timer = setTimeout(() => reject(new Error(`PIN locker ${i} did not boot within 60 s`)), 60_000);
          ws.onopen = () => {
            ws.onmessage = () => {
              clearTimeout(timer);
              resolve(ws);
            };
            ws.send(
              JSON.stringify([2, 'b', 'BootNotification', { vendor: 'bench', model: 'b', firmwareVersion: '1' }]),
            );
          };
          ws.onerror = () => reject(new Error(`PIN locker ${i} could not connect to ${config.url}`));
        }),
    ),
  );
  const probe = config.probeUrl ? new WebSocket(config.probeUrl) : undefined;
  if (probe) await new Promise((resolve) => (probe.onopen = resolve));
  const probeSent = new Map<string, number>();
  const probeSamples: number[] = [];
  if (probe) {
    probe.onmessage = (m: MessageEvent) => {
      const at = performance.now();
      const id = (JSON.parse(m.data as string) as [number, string])[1];
      const t0 = probeSent.get(id);
      probeSent.delete(id);
      if (t0 !== undefined && t0 >= measureFrom && t0 < measureTo) probeSamples.push(at - t0);
    };
  }
  const pinSamples: number[] = [];
  const readingSamples: number[] = [];
  const unexpected: Record<string, number> = {};
  let pinsSent = 0;
  let pinsAsExpected = 0;
  let readingsCalls = 0;
  let readingsErrors = 0;
  let outstanding = 0;
  let measureFrom = Number.POSITIVE_INFINITY;
  let measureTo = Number.POSITIVE_INFINITY;
  /** Per socket: call id → [sent at, expected status ('' for readings)]. */
  const pending = sockets.map(() => new Map<string, [number, string]>());

  for (const [s, ws] of sockets.entries()) {
    ws.onmessage = (m: MessageEvent) => {
      const at = performance.now();
      const frame = JSON.parse(m.data as string) as [number, string, unknown, ...unknown[]];
      if (frame[0] !== 3 && frame[0] !== 4) return;
      const sent = pending[s]?.get(frame[1]);
      if (!sent) return;
      pending[s]?.delete(frame[1]);
      outstanding--;
      const [t0, expected] = sent;
      const measured = t0 >= measureFrom && t0 < measureTo;
      if (expected === '') {
        if (frame[0] !== 3) readingsErrors++;
        if (measured) readingSamples.push(at - t0);
        return;
      }
      const status = frame[0] === 3 ? String((frame[2] as { status?: string }).status) : `error ${frame[2]}`;
      if (!config.check || status === expected) pinsAsExpected++;
      else unexpected[status] = (unexpected[status] ?? 0) + 1;
      if (measured) pinSamples.push(at - t0);
    };
  }

  return async () => {
    const begin = performance.now();
    measureFrom = begin + config.warmupSeconds * 1000;
    measureTo = measureFrom + config.seconds * 1000;
    let seq = 0;
    const send = (s: number, action: string, payload: unknown, expected: string) => {
      const id = String(++seq);
      pending[s]?.set(id, [performance.now(), expected]);
      outstanding++;
      sockets[s]?.send(JSON.stringify([2, id, action, payload]));
    };
    const timers: Timer[] = [];
    // Readings: each locker every period, from a random phase, as load.ts sends them.
    const periodMs = (config.perMessage / config.rate) * 1000;
    let readingSeq = 0;
    for (const s of sockets.keys()) {
      timers.push(
        setTimeout(
          () =>
            timers.push(
              setInterval(() => {
                const first = Date.now() - config.perMessage;
                const readings = Array.from({ length: config.perMessage }, (_, r) => ({
                  created: first + r,
                  value: 19 + ((readingSeq + r) % 30) / 10,
                }));
                readingSeq++;
                readingsCalls++;
                send(
                  s,
                  'TemperatureReadings',
                  { eventId: `p${s}-${readingSeq}`, seq: readingSeq, created: first, readings },
                  '',
                );
              }, periodMs),
            ),
          Math.random() * periodMs,
        ),
      );
    }
    // PINs: a Poisson stream over all lockers (patients arrive independently), right or wrong.
    let k = 0;
    const nextPin = () => {
      const wait = -Math.log(1 - Math.random()) * (1000 / config.pinsPerSecond);
      timers.push(
        setTimeout(() => {
          if (performance.now() >= measureTo) return;
          const s = Math.floor(Math.random() * sockets.length);
          const pins = config.lockers[s]?.pins ?? [];
          const wrong = ++k % config.wrongEvery === 0 || pins.length === 0;
          const pin = wrong ? wrongPin() : (pins[Math.floor(Math.random() * pins.length)] as string);
          pinsSent++;
          send(s, 'VerifyPin', { pin }, wrong ? 'Invalid' : 'Accepted');
          if (probe) {
            probeSent.set(String(seq), performance.now());
            probe.send(JSON.stringify([2, String(seq), 'VerifyPin', { pin }]));
          }
          nextPin();
        }, wait),
      );
    };
    nextPin();
    await Bun.sleep(measureTo - performance.now());
    for (const t of timers) clearTimeout(t);
    const drainUntil = Date.now() + 15_000;
    while (outstanding > 0 && Date.now() < drainUntil) await Bun.sleep(20);
    for (const ws of sockets) ws.close();
    probe?.close();
    await Bun.write(`${config.out}.probe`, Float64Array.from(probeSamples));
    await Bun.write(`${config.out}.pin`, Float64Array.from(pinSamples));
    await Bun.write(`${config.out}.lat`, Float64Array.from(readingSamples));
    return {
      pinsSent,
      pinsAsExpected,
      pinsUnexpected: unexpected,
      readingsCalls,
      readingsErrors,
      unanswered: outstanding,
    };
  };
}

if (import.meta.main) {
  const config = JSON.parse(await Bun.file(process.argv[2] as string).text()) as PinLoadConfig;
  const start = await run(config);
  console.log('ready');
  const input = console[Symbol.asyncIterator]();
  while (true) {
    const line = await input.next();
    if (line.done) process.exit(1);
    if (line.value.trim() === 'go') break;
  }
  console.log(JSON.stringify(await start()));
  while (!(await input.next()).done);
  process.exit(0);
}
