/**
 * Where a patient batch's api CPU goes, layer by layer, in-process (no HTTP, no client pipeline):
 * `bun bench/import/layers.ts [postgres url | pglite]` (a fresh database beside the url's, dropped after; or
 * PGlite in a temporary directory, whose CPU is then this process's too). The
 * generated file (bench/import/generate.ts) goes through core's pipeline once into 1,024-row batches,
 * imported into a business; then each line is ms of this process's CPU (user + system) per batch of
 * 1,024 for one pass over all the batches: the lowest and the median of three passes. PostgreSQL's own
 * CPU is not in these (it is another process); PGlite's is. `BENCH_MODE=production` runs the api as production does.
 *
 * - a first import (into a new business each pass) and a re-import (every row unchanged: what
 *   `medlocker patients import` sends again) through `app.handle`;
 * - the pieces alone: the body's JSON.parse, the contract's input check, the rows' digests
 *   (`importDigest`), the lookup of rows unchanged since the last import (`importedUnchanged`, what a
 *   re-import does instead of the next two), the row checks (`checkPatient`) and the upsert statement
 *   given the same rows unchanged (`upsertPatients`, what a re-import did before the digests).
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { importedUnchanged, upsertPatients } from '../../packages/api/src/areas/patients/import-repository.ts';
import { checkPatient, defaultDisplayIdField, importDigest } from '../../packages/api/src/areas/patients/rules.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { contract } from '../../packages/core/src/contract/index.ts';
import { importPatientCsv } from '../../packages/core/src/import/index.ts';
import { benchDeps } from '../rpc/fixture.ts';
import { benchOrigin, benchProduction } from '../rpc/mode.ts';
import { generatedMapping, generatePatientCsv } from './generate.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
// `pglite` as the argument: PGlite in a temporary directory, as the server runs it, its CPU this
// process's (one thread). Not `memory://`: PGlite's in-memory file system copies a growing file whole at
// each step, a cost the server on disk does not have. The directory goes when the process ends, however.
const pgliteDir = process.argv[2] === 'pglite' ? await mkdtemp(join(tmpdir(), 'bench-layers-')) : undefined;
if (pgliteDir) process.on('exit', () => rmSync(pgliteDir, { recursive: true, force: true }));
const fresh = pgliteDir
  ? undefined
  : await createFreshPostgresDatabase(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const opened = await createDb(
  fresh ? { kind: 'postgres', url: fresh.url, max: 10 } : { kind: 'pglite', dataDir: pgliteDir as string },
);
await migrateToLatest(opened.db);
const now = Date.now();
const { cookie, userId } = await signInTestUser(opened.db, now, { support: true });
const origin = benchOrigin();
const live = new LiveHub(localTransport(), silentLogger);
const deps = benchDeps(opened, live);
const app = createApp(deps);

const batches: unknown[][] = [];
const summary = await importPatientCsv(new Blob([generatePatientCsv(ROWS)]), {
  firstLine: 'fields',
  mapping: [...generatedMapping],
  onBatch: async (batch) => {
    batches.push(batch.patients);
  },
});
if (summary.errors.length > 0) throw new Error(`${summary.errors.length} rows refused by the pipeline`);

let business = 0;
async function newBusiness(): Promise<string> {
  const id = `bench-import-${business++}`;
  await opened.db
    .insertInto('businesses')
    .values({ id, name: id, email: `${id}@bench.test`, created: now, updated: now })
    .execute();
  return id;
}
const bodies = (businessId: string) => batches.map((patients) => JSON.stringify({ businessId, patients }));
const request = (body: string) =>
  new Request(`${origin}/api/patients/batchUpsertPatients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie, 'content-length': String(body.length) },
    body,
  });
const send = async (body: string) => {
  const res = await app.handle(request(body));
  if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
  await res.text();
};

/** ms of this process's CPU per batch for `pass` over every batch (two in flight, as the cli sends). */
async function cpu(label: string, pass: (round: number) => Promise<void>) {
  const perBatch: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = process.cpuUsage();
    await pass(round);
    const used = process.cpuUsage(before);
    perBatch.push((used.user + used.system) / 1000 / batches.length);
  }
  const sorted = [...perBatch].sort((a, b) => a - b);
  console.log(`${label}: ${sorted[0]?.toFixed(2)} / ${sorted[1]?.toFixed(2)} ms a batch`);
}
const twoInFlight = async (items: string[], fn: (item: string) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < items.length) await fn(items[next++] as string);
    }),
  );
};

console.log(
  `bench/import/layers ${new Date().toISOString()}, ${benchProduction() ? 'production' : 'test'} mode, ${batches.length} batches`,
);
const target = await newBusiness();
const again = bodies(target);
await twoInFlight(again, send);
await cpu('first import through app.handle (a new business each pass)', async () => {
  const fresh = bodies(await newBusiness());
  await twoInFlight(fresh, send);
});
await cpu('re-import through app.handle', () => twoInFlight(again, send));
await cpu('  the body: JSON.parse', async () => {
  for (const body of again) JSON.parse(body);
});
const method = contract.patients.batchUpsertPatients;
const parsed = again.map((body) => JSON.parse(body));
await cpu('  the contract input check', async () => {
  for (const body of parsed) method.input(body);
});
const today = new Date(now).toISOString().slice(0, 10);
// The pieces below take the rows as the server has them, read from the request's JSON. The pipeline's own
// objects hold the strings papaparse made from the file's text: digesting those took 4.8-5.5 ms a batch
// against 0.7-2.1 ms for the same rows read from JSON (2026-12-08), which overstated the server's cost.
const rows = parsed.map((body) => body.patients as unknown[]);
const sent = rows.map((batch) =>
  batch.map((p) => ({
    displayId: (p as { displayId: string }).displayId.trim(),
    digest: importDigest(p as never, defaultDisplayIdField),
  })),
);
await cpu('  the digests (importDigest)', async () => {
  for (const batch of rows) for (const p of batch) importDigest(p as never, defaultDisplayIdField);
});
await cpu('  the lookup of unchanged rows (importedUnchanged)', () =>
  twoInFlight(
    sent.map((_, i) => String(i)),
    async (i) => {
      const found = await importedUnchanged(opened.db, target, sent[Number(i)] as never);
      if (found.some((id) => id === null)) throw new Error('a row of the re-import was not found unchanged');
    },
  ),
);
await cpu('  the row checks (checkPatient)', async () => {
  for (const batch of rows) for (const p of batch) checkPatient(p as never, defaultDisplayIdField, today);
});
const checked = rows.map((batch, b) =>
  batch.map((p, ord) => {
    const c = checkPatient(p as never, defaultDisplayIdField, today);
    if (!c.ok) throw new Error(c.errors.join('; '));
    return { ...c.values, ord, id: Bun.randomUUIDv7(), digest: sent[b]?.[ord]?.digest as string };
  }),
);
const actor = { userId, display: 'bench', ip: null, requestId: null };
await cpu('  the upsert statement given them (upsertPatients)', async () => {
  await twoInFlight(
    checked.map((_, i) => String(i)),
    async (i) => {
      await upsertPatients(opened.db, {
        businessId: target,
        rows: checked[Number(i)] as never,
        now,
        auditId: Bun.randomUUIDv7(),
        actor,
      });
    },
  );
});

await live.close();
await opened.close();
await fresh?.drop();
