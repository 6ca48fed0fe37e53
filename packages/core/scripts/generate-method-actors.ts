/**
 * Writes src/contract/method-actors.ts: who may call each contract method (`access.actors`), without
 * the schemas, for front ends that only need to know which actions to show (the console's sign-in
 * and list pages must not evaluate every arktype schema). `bun packages/core/scripts/generate-method-actors.ts`;
 * src/contract/method-actors.test.ts fails when the file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { methodActorsSource } from '../src/contract/method-actors-source.ts';

const target = new URL('../src/contract/method-actors.ts', import.meta.url);
writeFileSync(target, methodActorsSource());
console.log(`wrote ${target.pathname}`);
