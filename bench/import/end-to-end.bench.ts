/**
 * bench/import (end to end): a generated 100,000-row (~14 MB) patient CSV imported through core's
 * pipeline (`importPatientCsv`, 1024-row batches) into `patients/batchUpsertPatients` of the in-process
 * app (HTTP request objects, JSON, session auth, contract validation, the server's SPEC §5 re-check, one
 * upsert statement per batch with its audit rows), into PostgreSQL and into PGlite.
 * Targets: PostgreSQL within 2 s, PGlite within 3 s. Then the same file again (every row unchanged).
 *
 * Run: `bun bench/import/end-to-end.bench.ts` (PGlite only), or with
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres` for PostgreSQL too (a fresh
 * database is created on that server and dropped afterwards). ROWS=… changes the size.
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, type DbKind, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { createSessionAuth } from '../../packages/api/src/auth/sessions.ts';
import { signInTestUser } from '../../packages/api/src/auth/testing.ts';
import { loadConfig } from '../../packages/api/src/config.ts';
import { silentLogger } from '../../packages/api/src/http/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { importPatientCsv } from '../../packages/core/src/import/index.ts';
import { generatePatientCsv } from './generate.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const ORIGIN = 'http://medlocker.bench';
const TARGET_MS: Record<DbKind, number> = { postgres: 2000, pglite: 3000 };
const mapping = [
  'NhsNumber',
  'GivenName',
  'FamilyName',
  'DateOfBirth',
  'Mobile',
  'Email',
  'AddressLine1',
  'PostTown',
  'Postcode',
  'AddressLine2',
  'AddressLine3',
] as const;

const INFLIGHT = process.env.INFLIGHT === '1' ? 1 : 2;
const csv = generatePatientCsv(ROWS);

async function freshPostgres(baseUrl: string) {
  const name = `medlocker_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: baseUrl });
      await again.connect();
      await again.query(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/** CPU ms used so far by a local process (utime + stime from /proc), 0 when it is gone. */
async function processCpuMs(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ 100
  } catch {
    return 0;
  }
}

const clientCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function run(kind: DbKind) {
  const fresh = kind === 'postgres' ? await freshPostgres(process.env.BENCH_DATABASE_URL as string) : undefined;
  const opened =
    kind === 'postgres'
      ? await createDb({ kind: 'postgres', url: fresh?.url as string, max: 5 })
      : await createDb({ kind: 'pglite', dataDir: 'memory://' });
  try {
    await migrateToLatest(opened.db);
    const now = Date.now();
    const businessId = Bun.randomUUIDv7();
    await opened.db
      .insertInto('businesses')
      .values({ id: businessId, name: 'Bench Pharmacy', created: now, updated: now })
      .execute();
    await opened.db
      .insertInto('business_feature_settings')
      .values({
        business_id: businessId,
        settings: JSON.stringify({ displayIdField: { name: 'NHS number', required: true, validateNhsNumber: true } }),
        updated: now,
      })
      .execute();
    const { token } = await signInTestUser(opened.db, now, { support: true });
    // Production settings: as served, so the dev-only check of each answer against the contract is off.
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: ORIGIN,
      SECRETS_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
    });
    const app = createApp({
      db: opened.db,
      dbKind: kind,
      config,
      logger: silentLogger,
      now: Date.now,
      auth: createSessionAuth(() => opened.db),
      mailer: createMemoryMailer(),
    });

    const send = async (patients: unknown[], totals: Record<string, number>) => {
      const res = await app.handle(
        new Request(`${ORIGIN}/api/patients/batchUpsertPatients`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, authorization: `Bearer ${token}` },
          body: JSON.stringify({ businessId, patients }),
        }),
      );
      if (res.status !== 200) throw new Error(`batchUpsertPatients answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as Record<string, number>;
      for (const key of ['created', 'updated', 'unchanged', 'invalid'])
        totals[key] = (totals[key] ?? 0) + (body[key] ?? 0);
      totals.calls = (totals.calls ?? 0) + 1;
    };

    /**
     * `inFlight` 1: each batch waits for the previous answer (the simplest client). 2: the next batch is
     * parsed and checked while the server writes the previous one, as the cli does; PostgreSQL works in
     * its own process meanwhile, PGlite shares the thread and gains nothing.
     */
    /**
     * CPU time, which the other work on a shared machine does not inflate as it does wall time: this
     * process (parsing, HTTP handling, checks; and PGlite itself, which runs in it) and, for PostgreSQL,
     * the server processes of the bench database (local, read from /proc).
     */
    const serverCpuMs = async () => {
      if (kind !== 'postgres') return 0;
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity where datname = current_database()`.execute(opened.db);
      let total = 0;
      for (const { pid } of rows) total += await processCpuMs(pid);
      return total;
    };

    const importOnce = async (inFlight: 1 | 2) => {
      const totals: Record<string, number> = {};
      const cpuBefore = { client: clientCpuMs(), server: await serverCpuMs() };
      const started = performance.now();
      let pending: Promise<void> = Promise.resolve();
      const summary = await importPatientCsv(csv, {
        firstLine: 'fields',
        mapping: [...mapping],
        onBatch: async (batch) => {
          if (inFlight === 1) return send(batch.patients, totals);
          await pending;
          pending = send(batch.patients, totals);
        },
      });
      await pending;
      const ms = performance.now() - started;
      const cpu = {
        clientCpuMs: Math.round(clientCpuMs() - cpuBefore.client),
        postgresCpuMs: Math.round((await serverCpuMs()) - cpuBefore.server),
      };
      if (summary.errors.length > 0) throw new Error(`${summary.errors.length} rows refused by the pipeline`);
      return { ms: Math.round(ms), ...cpu, ...totals } as { ms: number } & Record<string, number>;
    };

    const first = await importOnce(INFLIGHT);
    const again = await importOnce(INFLIGHT);
    const stored = await opened.db
      .selectFrom('patients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', businessId)
      .executeTakeFirstOrThrow();
    return {
      database: kind,
      requestsInFlight: INFLIGHT,
      firstImportMs: first.ms,
      firstImportCpuMs: { client: first.clientCpuMs, postgres: kind === 'postgres' ? first.postgresCpuMs : undefined },
      targetMs: TARGET_MS[kind],
      pass: first.ms <= TARGET_MS[kind],
      loadAverage: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' '),
      calls: first.calls,
      created: first.created,
      invalid: first.invalid,
      rowsStored: Number(stored.n),
      secondImportMs: again.ms,
      secondImportCpuMs: { client: again.clientCpuMs, postgres: kind === 'postgres' ? again.postgresCpuMs : undefined },
      secondImportUnchanged: again.unchanged,
    };
  } finally {
    await opened.close();
    await fresh?.drop();
  }
}

const kinds: DbKind[] = process.env.BENCH_DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];
const results = [];
for (const kind of kinds) results.push(await run(kind));
console.log(JSON.stringify({ rows: ROWS, megabytes: +(Buffer.byteLength(csv) / 1e6).toFixed(1), results }, null, 2));
