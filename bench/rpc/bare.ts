/** The floor: a bare Bun.serve answering every POST with the same bytes (`bun bench/rpc/bare.ts <port> <bodyFile>`). */
const [port, bodyFile] = process.argv.slice(2);
const body = await Bun.file(bodyFile as string).bytes();
Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }),
});
console.log('ready');

export {};
