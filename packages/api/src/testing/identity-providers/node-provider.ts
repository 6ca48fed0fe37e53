import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../cluster/free-port.ts';

/**
 * Starts one of the local OpenID providers beside this file (`script`, an .mjs given `settings` as JSON)
 * under Node, as Bun does not run oidc-provider, on a free port; resolves once it listens. `name` is
 * the provider in the error when it does not start.
 */
export async function startNodeProvider(
  script: string,
  settings: unknown,
  name: string,
): Promise<{ issuer: string; stop(): void }> {
  const port = await freePort();
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn('node', [path, String(port), JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => {
    errors += String(d);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${errors}`)), 15_000);
    child.stdout.on('data', (d) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`${name} exited (${code}): ${errors}`)));
  });
  return { issuer: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
