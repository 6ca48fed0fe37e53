import { ConfigError } from './config.ts';
import { startServer } from './server.ts';

/** The process exits within this long of SIGTERM or Ctrl-C, whatever is still open. */
const EXIT_WITHIN_MS = 10_000;

try {
  const server = await startServer();
  console.log(`\n  MedLocker console and API: ${server.url}   (API docs: ${server.url}/api/docs)\n`);
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second Ctrl-C stops at once.
    if (stopping) process.exit(130);
    stopping = true;
    console.log(`\n  ${signal}: stopping (lockers are told to reconnect; requests in flight finish)…`);
    setTimeout(() => {
      console.error('  Not stopped after 10 s: exiting anyway.');
      process.exit(1);
    }, EXIT_WITHIN_MS).unref();
    server.stop().then(
      () => process.exit(0),
      (error) => {
        console.error('  Stopping failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
