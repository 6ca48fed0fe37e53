// `npm test`: every test. Unit, database and API tests with `bun test` (on PGlite, and on PostgreSQL
// too when TEST_DATABASE_URL is set), then the end-to-end tests in Chromium with Playwright against
// the real server. Ends with one line 'N passed, N failed' over both.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { bun, ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();

/** Runs a command, echoing its output, and returns the exit code and what it printed. */
function capture(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0', ...env } });
    let out = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        out += chunk;
        (stream === child.stdout ? process.stdout : process.stderr).write(chunk);
      });
    }
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const count = (out, re) => {
  const matches = [...out.matchAll(re)];
  return matches.length ? Number(matches[matches.length - 1][1]) : 0;
};

const only = process.argv[2]; // 'unit' or 'e2e' to run one half
// After 'unit' or 'e2e': only the files matching these (e.g. `node scripts/test.mjs unit db/src`).
const filters = only === 'unit' || only === 'e2e' ? process.argv.slice(3) : [];

/**
 * The unit half runs its files in UNIT_WORKERS processes (2 by default: one per core of the CI
 * machine; 1 runs them one after another in one process), the slowest first by scripts/unit-timings.json
 * (refresh it with `UNIT_TIMINGS=update node scripts/test.mjs unit`). Each file opens its own PGlite and
 * its own PostgreSQL database, so files never share a database. A worker keeps its modules from one file
 * to the next (`--no-isolate`): loading the api and core's schemas again for every file was most of the
 * half's time. UNIT_ISOLATE=1 gives each file a fresh global again (to rule out a leftover).
 */
const workers = Number(process.env.UNIT_WORKERS ?? 2);
const timings = join(root, 'scripts', 'unit-timings.json');
const unitArgs = ['test', '--timeout', '60000'];
if (workers > 1) unitArgs.push(`--parallel=${workers}`);
if (process.env.UNIT_ISOLATE === '1') unitArgs.push('--isolate');
else if (workers > 1) unitArgs.push('--no-isolate');
if (workers > 1 || process.env.UNIT_TIMINGS === 'update') unitArgs.push('--timings', timings);
if (process.env.UNIT_TIMINGS === 'update') unitArgs.push('--update-timings');
let passed = 0;
let failed = 0;
let code = 0;

if (only !== 'e2e') {
  // The migrated database every database test file copies (db/src/test-templates.ts), made once up
  // front rather than by the first file of each worker at the same time.
  if (run(bun, ['db/scripts/make-test-templates.ts']) !== 0) code = 1;
  const unit = await capture(bun, [...unitArgs, ...filters]);
  passed += count(unit.out, /^\s*(\d+) pass$/gm);
  failed += count(unit.out, /^\s*(\d+) fail$/gm);
  if (unit.code !== 0) code = unit.code;
}

if (only !== 'unit') {
  if (run(bun, ['packages/console/build.ts']) !== 0 || run(bun, ['packages/patient/build.ts']) !== 0) {
    console.error('The console or the patient page did not build.');
    process.exit(1);
  }
  // Both were just built: the harness must not build them again while a server reads dist/.
  const e2e = await capture(join(root, 'node_modules', '.bin', 'playwright'), ['test', ...filters], {
    E2E_SKIP_BUILD: '1',
  });
  passed += count(e2e.out, /^\s*(\d+) passed/gm);
  failed += count(e2e.out, /^\s*(\d+) failed/gm) + count(e2e.out, /^\s*(\d+) flaky/gm);
  if (e2e.code !== 0) code = e2e.code;
}

console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(code !== 0 ? code : failed > 0 ? 1 : 0);
