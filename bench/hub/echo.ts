/**
 * The baseline: a bare Bun WebSocket server that answers every call at once with a result frame, the
 * same shape the hub sends, touching no database. `bun bench/hub/echo.ts <port>`.
 */
const port = Number(process.argv[2]);
Bun.serve({
  hostname: '127.0.0.1',
  port,
  fetch(request, server) {
    return server.upgrade(request) ? undefined : new Response('upgrade', { status: 426 });
  },
  websocket: {
    message(ws, message) {
      const frame = JSON.parse(String(message)) as [number, string, string, { readings?: unknown[] }];
      ws.send(
        JSON.stringify([
          3,
          frame[1],
          frame[2] === 'TemperatureReadings' ? { stored: frame[3].readings?.length ?? 0 } : {},
        ]),
      );
    },
  },
});
console.log('ready');
