#!/usr/bin/env bun
import { runCli } from './program.ts';
import { ask } from './ui/prompt.tsx';

/** `bun packages/cli/src/main.ts <command>`: the real terminal as the cli's io. */
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => await new Response(Bun.stdin.stream()).text(),
  env: process.env,
  interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  ask,
});
process.exit(code);
