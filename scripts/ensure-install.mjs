// Installs the workspace's packages with npm when they are missing or stale, so `npm start` and
// `npm test` work on a fresh clone with nothing but Node.js and npm. Bun itself comes from the npm
// registry as a dev dependency (node_modules/.bin/bun).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun');

const manifests = [
  'package.json',
  'package-lock.json',
  'db/package.json',
  ...['core', 'api', 'console', 'cli', 'locker-sim'].map((p) => `packages/${p}/package.json`),
];

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of manifests) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex');
}

export function ensureInstall() {
  const stamp = join(root, 'node_modules', '.medlocker-install-stamp');
  const want = fingerprint();
  if (existsSync(bun) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  // `npm install`, not `npm ci`: it follows package-lock.json just the same, and it also accepts a lock
  // file written on another platform, whose optional native packages (Biome's, Bun's) differ.
  // On standard error: a tool's standard output may be read by a script (--json).
  console.error('Installing dependencies (npm install)…');
  const run = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (run.status !== 0) {
    console.error('npm could not install the dependencies; see the messages above.');
    process.exit(run.status ?? 1);
  }
  if (!existsSync(bun)) {
    console.error('Bun did not install (node_modules/.bin/bun is missing).');
    process.exit(1);
  }
  writeFileSync(stamp, fingerprint());
}

/** Runs a command in the project root with inherited output; returns its exit code. */
export function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}
