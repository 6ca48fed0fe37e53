// `npm start`: install what is missing, build the console, then migrate, seed (first run) and serve.
import { spawn } from 'node:child_process';
import { bun, ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();
if (run(bun, ['packages/console/build.ts']) !== 0) {
  console.error('The console did not build; see the messages above.');
  process.exit(1);
}
const server = spawn(bun, ['packages/api/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
