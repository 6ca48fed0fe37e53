import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { methodActorsSource } from './method-actors-source.ts';

describe('the generated list of who may call each method', () => {
  it('matches the contract (run bun packages/core/scripts/generate-method-actors.ts after changing an access)', () => {
    const onDisk = readFileSync(new URL('./method-actors.ts', import.meta.url), 'utf8');
    expect(onDisk).toBe(methodActorsSource());
  });
});
