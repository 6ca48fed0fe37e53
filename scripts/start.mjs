// `npm start`: install what is missing, build the console and the patient page, then migrate, seed (first run) and serve.
// SIGINT (Ctrl-C) and SIGTERM reach the step running (the build, then the server), which stops
// gracefully; this script exits when it has, with its exit code.
import { spawn } from 'node:child_process';
import { bun, ensureInstall, root } from './ensure-install.mjs';

/** The step running now, which signals are forwarded to. */
let child;
let stopping;

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping = signal;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    else process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 0));
  });
}

/**
 * Runs one step in its own process group, so a terminal's Ctrl-C reaches it once (forwarded from here)
 * and not twice, which the server would take as "stop now". Resolves with its exit code.
 */
function step(args) {
  return new Promise((resolve) => {
    child = spawn(bun, args, { cwd: root, stdio: 'inherit', detached: process.platform !== 'win32' });
    child.on('error', (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
  });
}

ensureInstall();
// The two front ends the api serves: the staff console and the patient page.
for (const [name, script] of [
  ['console', 'packages/console/build.ts'],
  ['patient page', 'packages/patient/build.ts'],
]) {
  const built = await step([script]);
  if (stopping) process.exit(built === 0 ? 0 : built);
  if (built !== 0) {
    console.error(`The ${name} did not build; see the messages above.`);
    process.exit(1);
  }
}
process.exit(await step(['packages/api/src/main.ts']));
