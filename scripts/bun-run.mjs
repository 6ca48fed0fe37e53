// `npm run worker` and `npm run chaos`: install what is missing (a fresh clone has only Node.js and npm),
// then run the Bun script named by the arguments. A terminal's Ctrl-C reaches the script itself (same
// process group); a SIGTERM sent to this wrapper alone is passed on. Exits with the script's exit code.
import { spawn } from 'node:child_process';
import { bun, ensureInstall, root } from './ensure-install.mjs';

ensureInstall();
const child = spawn(bun, process.argv.slice(2), { cwd: root, stdio: 'inherit' });
process.on('SIGINT', () => {}); // the script got it too, and stops in its own time
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)));
