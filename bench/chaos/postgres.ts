/**
 * A private PostgreSQL cluster for the chaos run, so that restarting "the database" never touches the
 * machine's own (CI's tests use it): initdb into a temporary directory and pg_ctl on a free port, from
 * the newest /usr/lib/postgresql/<version>/bin (or PG_BIN). As root, run as the `postgres` user (initdb
 * refuses root). Trust authentication on 127.0.0.1 only; the directory is removed by `stop`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PrivatePostgres = {
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: sessions cut, a clean shutdown and start; returns how long it took (ms). */
  restart(): number;
  stop(): void;
};

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('No PostgreSQL server binaries in /usr/lib/postgresql/*/bin (set PG_BIN)');
  return join(root, versions[0], 'bin');
}

export function startPrivatePostgres(port: number): PrivatePostgres {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'medlocker-chaos-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const result = spawnSync(full[0] as string, full[1] as string[], { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${cmd} ${args.join(' ')} failed: ${result.stderr || result.stdout || result.error?.message}`);
    }
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--no-locale']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => {
      const t0 = performance.now();
      run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-m', 'fast', '-w', '-t', '60', 'restart']);
      return Math.round(performance.now() - t0);
    },
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
