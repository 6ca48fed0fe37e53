import { ConfigError } from './config.ts';
import { startServer } from './server.ts';

try {
  const server = await startServer();
  console.log(`\n  MedLocker console and API: ${server.url}   (API docs: ${server.url}/api/docs)\n`);
  const shutdown = async () => {
    await server.stop();
    process.exit(0);
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
