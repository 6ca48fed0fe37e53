import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 (asked of the OS, then released) for a server a test or a bench starts.
 * Plain node:net, so it runs under Node too (the test identity providers do).
 */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port was given')),
      );
    });
  });
}
