/**
 * The second baseline: a bare Bun WebSocket server that stores each TemperatureReadings call's readings
 * in PostgreSQL before answering, as simply as that can be done: no token, no checks, no receipts, no
 * sessions; one plain table keyed by (socket, time); calls grouped into one `unnest` insert per commit
 * slot (four, as the hub), `synchronous_commit` as READINGS_COMMIT says. What the hub costs beyond
 * this is the product's own work. `bun bench/hub/db-echo.ts <port> <postgres url>`.
 */
import pg from 'pg';

const [portText, url] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query(
  'create table if not exists bare_readings (socket int, created bigint, value float8, primary key (socket, created))',
);
const fast = (process.env.READINGS_COMMIT || 'fast') === 'fast';

type Pending = { socket: number; readings: { created: number; value: number }[]; answer: () => void };
let queue: Pending[] = [];
let inFlight = 0;
let scheduled = false;

function schedule() {
  if (scheduled || inFlight >= 4) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    while (queue.length > 0 && inFlight < 4) void flush();
  });
}

async function flush() {
  const batch = queue;
  queue = [];
  inFlight++;
  try {
    const rows = batch.flatMap((p) => p.readings.map((r) => [p.socket, r.created, r.value] as const));
    await pool.query(
      `with stored as (
         insert into bare_readings select * from unnest($1::int[], $2::bigint[], $3::float8[])
         on conflict do nothing returning 1)
       select count(*) from stored${fast ? `, (select set_config('synchronous_commit', 'off', true)) as fast_commit` : ''}`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    );
    for (const p of batch) p.answer();
  } finally {
    inFlight--;
    if (queue.length > 0) schedule();
  }
}

let sockets = 0;
Bun.serve<{ socket: number }>({
  hostname: '127.0.0.1',
  port: Number(portText),
  fetch(request, server) {
    return server.upgrade(request, { data: { socket: ++sockets } })
      ? undefined
      : new Response('upgrade', { status: 426 });
  },
  websocket: {
    message(ws, message) {
      const frame = JSON.parse(String(message)) as [
        number,
        string,
        string,
        { readings?: { created: number; value: number }[] },
      ];
      const answer = (result: object) => ws.send(JSON.stringify([3, frame[1], result]));
      const readings = frame[2] === 'TemperatureReadings' ? (frame[3].readings ?? []) : [];
      if (readings.length === 0) {
        answer({});
        return;
      }
      queue.push({ socket: ws.data.socket, readings, answer: () => answer({ stored: readings.length }) });
      schedule();
    },
  },
});
console.log('ready');
