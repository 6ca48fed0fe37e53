import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeDb, type TestDb } from './testing.ts';

const NOW = 1_760_000_000_000;
const stamps = { created: NOW, updated: NOW };

async function business(t: TestDb, name = 'Harborne Pharmacy'): Promise<string> {
  const id = Bun.randomUUIDv7();
  await t.db
    .insertInto('businesses')
    .values({ id, name, ...stamps })
    .execute();
  return id;
}

async function machine(t: TestDb, businessId: string, name: string): Promise<string> {
  const id = Bun.randomUUIDv7();
  await t.db
    .insertInto('machines')
    .values({ id, business_id: businessId, name, number_of_slots: 10, ...stamps })
    .execute();
  return id;
}

describeDb('constraints the rules depend on', (t) => {
  it('refuses a machine name that differs only in case within a business', async () => {
    const harborne = await business(t);
    await machine(t, harborne, 'Front Window');
    await expect(machine(t, harborne, 'FRONT window')).rejects.toThrow(/machines_business_name_key/);
    // another business may use the same name
    await machine(t, await business(t, 'Chorlton Chemist'), 'front window');
  });

  it('keeps one login_failures row per username, so failures can be counted with an upsert', async () => {
    const fail = () =>
      t.db
        .insertInto('login_failures')
        .values({ username_normalised: 'sam@example.com', failures: 1, first_failure_at: NOW })
        .onConflict((oc) =>
          oc.column('username_normalised').doUpdateSet({ failures: sql`login_failures.failures + 1` }),
        )
        .execute();
    await fail();
    await fail();
    await fail();
    const rows = await t.db.selectFrom('login_failures').selectAll().execute();
    expect(rows).toEqual([
      { username_normalised: 'sam@example.com', failures: 3, first_failure_at: NOW, locked_until: null },
    ]);
  });

  it('records a replayed locker event only once', async () => {
    const businessId = await business(t);
    const machineId = await machine(t, businessId, 'Front Window');
    const record = () =>
      t.db
        .insertInto('machine_events')
        .values({
          id: Bun.randomUUIDv7(),
          business_id: businessId,
          machine_id: machineId,
          code: 'EM_0001',
          level: 'warn',
          locker_event_id: 'locker-event-42',
          sequence: 42,
          created: NOW,
        })
        .onConflict((oc) => oc.columns(['business_id', 'machine_id', 'locker_event_id']).doNothing())
        .executeTakeFirst();
    expect((await record()).numInsertedOrUpdatedRows).toBe(1n);
    expect((await record()).numInsertedOrUpdatedRows).toBe(0n);
    expect(await t.db.selectFrom('machine_events').select('id').execute()).toHaveLength(1);
  });

  it('refuses a machine row that names a machine of another business', async () => {
    const harborne = await business(t);
    const chorlton = await business(t, 'Chorlton Chemist');
    const chorltonMachine = await machine(t, chorlton, 'Main Entrance');
    const insert = t.db
      .insertInto('temperature_readings')
      .values({ business_id: harborne, machine_id: chorltonMachine, created: NOW, value: 19.5 })
      .execute();
    await expect(insert).rejects.toThrow(/foreign key/);
  });

  it('gives a user one role of a name per resource, unscoped roles included', async () => {
    const userId = Bun.randomUUIDv7();
    await t.db
      .insertInto('users')
      .values({
        id: userId,
        email: 'Sam@example.com',
        email_normalised: 'sam@example.com',
        front_end: 'support',
        ...stamps,
      })
      .execute();
    const role = (resourceId: string | null) =>
      t.db
        .insertInto('user_roles')
        .values({
          id: Bun.randomUUIDv7(),
          user_id: userId,
          name: resourceId ? 'Business' : 'Support',
          resource_type: resourceId ? 'business' : null,
          resource_id: resourceId,
          created: NOW,
        })
        .execute();
    await role(null);
    await expect(role(null)).rejects.toThrow(/user_roles_user_name_resource_key/);
    await role('b1');
    await role('b2');
    await expect(role('b1')).rejects.toThrow(/user_roles_user_name_resource_key/);
  });

  it('keeps the audit log append-only', async () => {
    await t.db
      .insertInto('audit_log')
      .values({
        id: 'a1',
        at: NOW,
        action: 'business.archive',
        entity_type: 'business',
        details: JSON.stringify({ a: 1 }),
      })
      .execute();
    await expect(t.db.updateTable('audit_log').set({ action: 'x' }).execute()).rejects.toThrow(/append-only/);
    await expect(t.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });

  it('keeps a display id unique among a business’s current patients only', async () => {
    const businessId = await business(t);
    const patient = (id: string, deletedAt: number | null) =>
      t.db
        .insertInto('patients')
        .values({
          id,
          business_id: businessId,
          display_id: '9434765919',
          full_name: 'Olivia Smith',
          deleted_at: deletedAt,
          ...stamps,
        })
        .execute();
    await patient('p1', NOW);
    await patient('p2', null);
    await expect(patient('p3', null)).rejects.toThrow(/patients_business_display_id_key/);
  });

  it('keeps every patient on an existing business, as a foreign key would', async () => {
    const businessId = await business(t);
    const patient = (id: string, owner: string) =>
      t.db
        .insertInto('patients')
        .values({ id, business_id: owner, display_id: id, full_name: 'Olivia Smith', ...stamps })
        .execute();
    await expect(patient('p1', 'no-such-business')).rejects.toThrow(/patients_business_id_fkey/);
    await patient('p2', businessId);
    await expect(
      t.db.updateTable('patients').set({ business_id: 'no-such-business' }).where('id', '=', 'p2').execute(),
    ).rejects.toThrow(/patients_business_id_fkey/);
    await expect(t.db.deleteFrom('businesses').where('id', '=', businessId).execute()).rejects.toThrow(
      /patients_business_id_fkey/,
    );
    await expect(
      t.db.updateTable('businesses').set({ id: 'renamed' }).where('id', '=', businessId).execute(),
    ).rejects.toThrow(/patients_business_id_fkey/);
    // A business without patients goes; an update that keeps the id is untouched.
    await t.db.updateTable('businesses').set({ name: 'Harborne Pharmacy Ltd' }).where('id', '=', businessId).execute();
    const empty = await business(t, 'Empty');
    await t.db.deleteFrom('businesses').where('id', '=', empty).execute();
    expect(await t.db.selectFrom('patients').select('id').execute()).toEqual([{ id: 'p2' }]);
  });
});
