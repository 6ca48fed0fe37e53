// Runs a Bun script of the repository from Node.js: installs what is missing first (a fresh clone has
// only Node.js and npm), then runs it with the repository's own Bun. Used by the npm scripts
// (`npm run worker`, `npm run medlocker`, the builds…) and by the `medlocker` and `locker-sim` commands.
// A terminal's Ctrl-C reaches the script itself (same process group); a SIGTERM sent to this wrapper
// alone is passed on. Exits with the script's exit code.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bun, ensureInstall, root } from './ensure-install.mjs';

/**
 * Runs `script` (a path from the repository's root) with `args`, in `cwd`: the repository's root for npm
 * scripts, the caller's own folder for the installed commands (so `./patients.csv` is theirs).
 */
export function runBunScript(script, args, cwd = root) {
  ensureInstall();
  const child = spawn(bun, [resolve(root, script), ...args], { cwd, stdio: 'inherit' });
  process.on('SIGINT', () => {}); // the script got it too, and stops in its own time
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('error', (error) => {
    console.error(error.message);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)));
}

// `node scripts/bun-run.mjs <script> [args…]`
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [script, ...args] = process.argv.slice(2);
  if (!script) {
    console.error('usage: node scripts/bun-run.mjs <script> [args…]');
    process.exit(2);
  }
  runBunScript(script, args);
}
