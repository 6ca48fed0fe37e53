import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type LockEntry = { optionalDependencies?: Record<string, string>; os?: string[]; cpu?: string[] };

const lock = JSON.parse(readFileSync(join(import.meta.dir, '..', 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

describe('package-lock.json', () => {
  // npm adds an entry for every platform package it knows of; one missing from the committed file is
  // written into it by the first `npm install` (so `npm start` on a fresh clone changed a tracked file,
  // and the install stamp, which hashes the lock file, no longer matched the next start's).
  it('lists every platform package of the native tools, so an install leaves it as committed', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path.startsWith('node_modules/') || !entry.optionalDependencies) continue;
      for (const name of Object.keys(entry.optionalDependencies)) {
        const nested = `${path}/node_modules/${name}`;
        if (!(`node_modules/${name}` in lock.packages) && !(nested in lock.packages)) {
          const platformSpecific = /(?:darwin|linux|win32|android|freebsd|arm|x64|aarch64)/.test(name);
          if (platformSpecific) missing.push(`${name} (wanted by ${path.slice('node_modules/'.length)})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
