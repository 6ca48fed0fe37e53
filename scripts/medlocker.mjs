#!/usr/bin/env node
// The `medlocker` command (`npm run medlocker -- …`, or on the PATH after `npm link`): installs what is missing,
// then runs packages/cli/src/main.ts with the repository's Bun, in the folder it was called from.
import { runBunScript } from './bun-run.mjs';

runBunScript('packages/cli/src/main.ts', process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
