import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { seedDemo } from './seed.ts';
import { describeDb, restoreTables, snapshotTables, stubOrderPin } from './testing.ts';

describeDb('snapshotTables and restoreTables', (t) => {
  it('put back exactly the rows read, whatever was changed, deleted or added in between', async () => {
    await seedDemo(t.db, {
      adminEmail: 'admin@medlocker.test',
      adminPasswordHash: '$argon2id$v=19$m=1024,t=1,p=1$x$y',
      orderPin: stubOrderPin,
    });
    const saved = await snapshotTables(t.db);
    // Rows of most tables, with foreign keys between them, JSON, arrays and numbers.
    expect(saved.tables.filter((s) => s.rows !== '[]').length).toBeGreaterThan(5);

    await t.db.updateTable('businesses').set({ name: 'Renamed', keyholders_mobile_numbers: [] }).execute();
    await t.db.deleteFrom('order_events').execute();
    await t.db.deleteFrom('user_roles').execute();
    await t.db
      .insertInto('groups')
      .values({ id: 'extra', name: 'Extra', created: 1, updated: 1 } as never)
      .execute();
    expect(await snapshotTables(t.db)).not.toEqual(saved);

    await restoreTables(t.db, saved);
    expect(await snapshotTables(t.db)).toEqual(saved);
    // And again, from the restored state: nothing was left behind to collide with.
    await restoreTables(t.db, saved);
    expect(await snapshotTables(t.db)).toEqual(saved);
  });

  it('empties every table for an empty snapshot', async () => {
    const empty = await snapshotTables(t.db);
    expect(empty.tables.every((s) => s.rows === '[]')).toBe(true);
    await seedDemo(t.db, {
      adminEmail: 'admin@medlocker.test',
      adminPasswordHash: '$argon2id$v=19$m=1024,t=1,p=1$x$y',
      orderPin: stubOrderPin,
    });
    await restoreTables(t.db, empty);
    expect(await snapshotTables(t.db)).toEqual(empty);
  });

  it('empties a filled database with its one statement of deletes, without falling back to truncate', async () => {
    await seedDemo(t.db, {
      adminEmail: 'admin@medlocker.test',
      adminPasswordHash: '$argon2id$v=19$m=1024,t=1,p=1$x$y',
      orderPin: stubOrderPin,
    });
    // The append-only audit log refuses deletes: the statement truncates it.
    await sql`insert into audit_log (id, at, action, entity_type) values ('a1', 1, 'x.y', 'user')`.execute(t.db);
    const { emptier } = await snapshotTables(t.db);
    expect(emptier.statement).toStartWith('do $$ begin delete from');
    expect(emptier.statement).toContain('truncate table "audit_log" cascade;');
    await sql.raw(emptier.statement as string).execute(t.db);
    expect((await snapshotTables(t.db)).tables.every((s) => s.rows === '[]')).toBe(true);
  });
});
