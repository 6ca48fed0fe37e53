// `npm run check`: format, lint, types, then every test. `npm run check -- <step>` runs one step:
// `format` (writes), `lint`, `types`. Each installs what is missing first, as `npm start` does.
import { join } from 'node:path';
import { ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();
const bin = (name) => join(root, 'node_modules', '.bin', name);
const steps = {
  'format and lint': [bin('biome'), ['check', '.']],
  format: [bin('biome'), ['format', '--write', '.']],
  lint: [bin('biome'), ['lint', '.']],
  types: [bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  tests: [process.execPath, ['scripts/test.mjs']],
};
const asked = process.argv[2];
if (asked !== undefined && !(asked in steps)) {
  console.error(`usage: node scripts/check.mjs [${Object.keys(steps).join(' | ')}]`);
  process.exit(2);
}
for (const name of asked ? [asked] : ['format and lint', 'types', 'tests']) {
  const [cmd, args] = steps[name];
  console.log(`\n── ${name}`);
  if (run(cmd, args) !== 0) {
    console.error(`\n${name}: failed`);
    process.exit(1);
  }
}
