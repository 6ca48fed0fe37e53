import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { version } from '../../package.json' with { type: 'json' };

export type BuildInfo = { version: string; commit: string };

/**
 * Which build runs: the api's version, and the commit it was built from (MEDLOCKER_COMMIT, set by the
 * image's build; in a checkout, git's HEAD; else `unknown`). Read once.
 */
export const buildInfo: BuildInfo = {
  version: process.env.MEDLOCKER_VERSION?.trim() || version,
  commit: process.env.MEDLOCKER_COMMIT?.trim() || gitHead() || 'unknown',
};

function gitHead(): string | undefined {
  try {
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: join(import.meta.dir, '..'), encoding: 'utf8' });
    return head.status === 0 ? head.stdout.trim() : undefined;
  } catch {
    return undefined;
  }
}
