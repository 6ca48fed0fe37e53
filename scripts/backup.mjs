#!/usr/bin/env node
// `npm run backup -- <folder>` and `npm run restore -- <folder>`: MedLocker's data, whole, in one folder.
//
// What a backup holds (docs/OPERATIONS.md, "Back up and restore"):
//   database.dump   PostgreSQL's custom-format dump of DATABASE_URL (pg_dump -Fc): every table, PINs and
//                   secrets still sealed with SECRETS_KEY (which is NOT in the backup: keep it apart)
//   logos/          the uploaded logos (DATA_DIR/files/logos), which live on disk, not in the database
//   manifest.json   when, from which database, and what it holds (tables' row counts, logo files)
// Restore goes into an EMPTY database (it refuses one that has tables) and an empty logos folder, then the
// api starts on it as usual (it migrates a backup taken by an older version). Exit codes: 0 done,
// 1 failed (the message says why), 2 wrong command line.
// PGlite (no DATABASE_URL): stop the server and copy DATA_DIR; this script says so.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const usage =
  'usage: npm run backup -- <folder>   |   npm run restore -- <folder>   (DATABASE_URL and DATA_DIR as the api uses them)';

function fail(message, code = 1) {
  console.error(`\n  ${message}\n`);
  process.exit(code);
}

/** Runs one of PostgreSQL's own tools; stops with its message when it fails. */
function pgTool(tool, args, input) {
  const run = spawnSync(tool, args, { encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (run.error) fail(`${tool} could not be started (${run.error.message}): install PostgreSQL's client tools`);
  if (run.status !== 0) fail(`${tool} failed:\n${run.stderr.trim()}`);
  return run.stdout;
}

/** Row counts of every table in the database's public schema, by name. */
function rowCounts(url) {
  const tables = pgTool('psql', [
    url,
    '-At',
    '-c',
    "select tablename from pg_tables where schemaname = 'public' order by 1",
  ])
    .split('\n')
    .filter(Boolean);
  if (tables.length === 0) return {};
  const query = tables.map((t) => `select '${t}', count(*) from "${t}"`).join(' union all ');
  return Object.fromEntries(
    pgTool('psql', [url, '-At', '-F', '\t', '-c', query])
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, count] = line.split('\t');
        return [name, Number(count)];
      }),
  );
}

const logoFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /^[\w-]+\.(png|jpg)$/.test(f))
        .sort()
    : [];

export function backup(folder, env) {
  const url = env.DATABASE_URL?.trim();
  if (!url) {
    fail(
      'DATABASE_URL is not set: the embedded database (PGlite) is backed up by stopping the server and copying DATA_DIR whole.',
    );
  }
  const logos = join(resolve(env.DATA_DIR?.trim() || 'data'), 'files', 'logos');
  if (existsSync(folder) && readdirSync(folder).length > 0) fail(`${folder} is not empty: back up into a new folder`);
  mkdirSync(join(folder, 'logos'), { recursive: true });
  const started = new Date();
  // One consistent snapshot of the database (pg_dump runs in one repeatable-read transaction).
  pgTool('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${join(folder, 'database.dump')}`,
    url,
  ]);
  const files = logoFiles(logos);
  for (const file of files) cpSync(join(logos, file), join(folder, 'logos', file));
  const manifest = {
    kind: 'medlocker-backup',
    version: 1,
    started: started.toISOString(),
    finished: new Date().toISOString(),
    rows: rowCounts(url),
    logos: files,
  };
  writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export function restore(folder, env) {
  const url = env.DATABASE_URL?.trim();
  if (!url) fail('DATABASE_URL is not set: name the empty PostgreSQL database to restore into.');
  const manifestPath = join(folder, 'manifest.json');
  if (!existsSync(manifestPath)) fail(`${folder} holds no manifest.json: not a MedLocker backup`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (manifest.kind !== 'medlocker-backup') fail(`${manifestPath} is not a MedLocker backup's manifest`);
  if (Object.keys(rowCounts(url)).length > 0) fail('The database is not empty: restore into a new, empty database');
  const logos = join(resolve(env.DATA_DIR?.trim() || 'data'), 'files', 'logos');
  const there = logoFiles(logos);
  if (there.length > 0) fail(`${logos} already holds logos: restore into an empty DATA_DIR`);
  // All or nothing: a restore that fails part way leaves the database as empty as it was.
  pgTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    '--exit-on-error',
    `--dbname=${url}`,
    join(folder, 'database.dump'),
  ]);
  mkdirSync(logos, { recursive: true });
  for (const file of manifest.logos) cpSync(join(folder, 'logos', file), join(logos, file));
  const rows = rowCounts(url);
  const differ = Object.entries(manifest.rows).filter(([table, count]) => rows[table] !== count);
  if (differ.length > 0)
    fail(`restored, but the row counts differ from the backup's: ${differ.map(([t]) => t).join(', ')}`);
  return manifest;
}

const [, , command, folderArg] = process.argv;
if (import.meta.url === `file://${resolve(process.argv[1] ?? '')}`) {
  if (!['backup', 'restore'].includes(command) || !folderArg) fail(usage, 2);
  const folder = resolve(process.env.INIT_CWD ?? process.cwd(), folderArg);
  const manifest = command === 'backup' ? backup(folder, process.env) : restore(folder, process.env);
  const rows = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      [command === 'backup' ? 'backedUp' : 'restored']: folder,
      tables: Object.keys(manifest.rows).length,
      rows,
      logos: manifest.logos.length,
    }),
  );
}
