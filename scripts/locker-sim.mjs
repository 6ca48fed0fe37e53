#!/usr/bin/env node
// The `locker-sim` command (`npm run locker-sim -- …`, or on the PATH after `npm link`): installs what is missing,
// then runs packages/locker-sim/src/main.ts with the repository's Bun, in the folder it was called from.
import { runBunScript } from './bun-run.mjs';

runBunScript('packages/locker-sim/src/main.ts', process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
