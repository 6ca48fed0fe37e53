import { describe, expect, it } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};
/** Node.js and a shell, nothing of node_modules: what a fresh clone's `npm run` starts from. */
const bare = { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin' };
const node = spawnSync('which', ['node'], { env: bare, encoding: 'utf8' }).stdout.trim() || 'node';
const run = (args: string[]) => spawnSync(node, args, { cwd: root, env: bare, encoding: 'utf8', timeout: 60_000 });

describe('the tools start on a fresh clone', () => {
  it('runs every npm script through Node.js, which installs what is missing first', () => {
    const direct = Object.entries(manifest.scripts)
      .filter(([, command]) => !command.startsWith('node '))
      .map(([name, command]) => `${name}: ${command}`);
    expect(direct).toEqual([]);
  });

  it('installs medlocker and locker-sim as commands that Node.js can run', () => {
    for (const script of Object.values(manifest.bin)) {
      const text = readFileSync(join(root, script), 'utf8');
      expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect(() => accessSync(join(root, script), constants.X_OK)).not.toThrow();
    }
    expect(Object.keys(manifest.bin).sort()).toEqual(['locker-sim', 'medlocker']);
  });

  for (const tool of ['medlocker', 'locker-sim']) {
    it(`answers ${tool} --version and lists its exit codes in --help, with no Bun on the PATH`, () => {
      const version = run([`scripts/${tool}.mjs`, '--version']);
      expect(version.status).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const help = run([`scripts/${tool}.mjs`, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('Exit codes:');
      expect(run([`scripts/${tool}.mjs`, '--no-such-option']).status).toBe(2);
    }, 120_000);
  }
});
