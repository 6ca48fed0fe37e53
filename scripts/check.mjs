// `npm run check`: format, lint, types, then every test.
import { join } from 'node:path';
import { ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();
const bin = (name) => join(root, 'node_modules', '.bin', name);
const steps = [
  ['format and lint', bin('biome'), ['check', '.']],
  ['types', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['tests', process.execPath, ['scripts/test.mjs']],
];
for (const [name, cmd, args] of steps) {
  console.log(`\n── ${name}`);
  if (run(cmd, args) !== 0) {
    console.error(`\n${name}: failed`);
    process.exit(1);
  }
}
