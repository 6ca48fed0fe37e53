import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeDb } from './testing.ts';

// PostgreSQL restarting, failing over or an administrator ending a backend (57P01) reaches a client the
// pool has lent out as an 'error' event on that client: the process must outlive it, the statement on
// that connection fail, and the next one get a fresh connection.
describeDb('a connection lost while in use', (t) => {
  it('fails what ran on it and leaves the process and the pool working', async () => {
    if (t.kind !== 'postgres') return;
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (...args: unknown[]) => warned.push(args.join(' '));
    try {
      const failed = await t.db.connection().execute(async (held) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(held);
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(t.db);
        await Bun.sleep(300);
        return sql`select 1`.execute(held).then(
          () => false,
          () => true,
        );
      });
      expect(failed).toBe(true);
      expect(warned.some((w) => w.includes('PostgreSQL connection lost'))).toBe(true);
      expect((await sql<{ n: number }>`select 1 as n`.execute(t.db)).rows).toEqual([{ n: 1 }]);
    } finally {
      console.warn = warn;
    }
  });
});
