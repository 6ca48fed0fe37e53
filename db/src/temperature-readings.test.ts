import { expect, it } from 'bun:test';
import { describeDb, type TestDb } from './testing.ts';

const NOW = 1_760_000_000_000;
const stamps = { created: NOW, updated: NOW };

async function machineOf(t: TestDb, name: string): Promise<{ businessId: string; machineId: string }> {
  const businessId = Bun.randomUUIDv7();
  const machineId = Bun.randomUUIDv7();
  await t.db
    .insertInto('businesses')
    .values({ id: businessId, name, ...stamps })
    .execute();
  await t.db
    .insertInto('machines')
    .values({ id: machineId, business_id: businessId, name: 'Front Window', number_of_slots: 10, ...stamps })
    .execute();
  return { businessId, machineId };
}

const readings = (t: TestDb, businessId: string, machineIds: string[]) =>
  t.db
    .insertInto('temperature_readings')
    .values(
      machineIds.map((machineId, i) => ({
        business_id: businessId,
        machine_id: machineId,
        created: NOW + i,
        value: 19.5,
      })),
    )
    .execute();

// Migration 0008 checks readings' machine per statement instead of per row; these hold it to a foreign
// key's meaning.
describeDb('temperature readings and their machine', (t) => {
  it('refuses a statement with one reading of a machine that does not exist, and stores none of it', async () => {
    const { businessId, machineId } = await machineOf(t, 'Harborne Pharmacy');
    await expect(readings(t, businessId, [machineId, 'no-such-machine', machineId])).rejects.toThrow(
      /temperature_readings_business_id_machine_id_fkey/,
    );
    expect(await t.db.selectFrom('temperature_readings').select('created').execute()).toEqual([]);
    await readings(t, businessId, [machineId, machineId]);
    expect(await t.db.selectFrom('temperature_readings').select('created').execute()).toHaveLength(2);
  });

  it('refuses moving a reading to another business’s machine', async () => {
    const harborne = await machineOf(t, 'Harborne Pharmacy');
    const chorlton = await machineOf(t, 'Chorlton Chemist');
    await readings(t, harborne.businessId, [harborne.machineId]);
    const move = t.db.updateTable('temperature_readings').set({ machine_id: chorlton.machineId }).execute();
    await expect(move).rejects.toThrow(/temperature_readings_business_id_machine_id_fkey/);
  });

  it('keeps a machine that has readings: no delete, no change of its key; other updates go through', async () => {
    const { businessId, machineId } = await machineOf(t, 'Harborne Pharmacy');
    await readings(t, businessId, [machineId]);
    const machine = () => t.db.selectFrom('machines').select(['id', 'last_seen']).where('id', '=', machineId);
    await expect(t.db.deleteFrom('machines').where('id', '=', machineId).execute()).rejects.toThrow(
      /temperature_readings_business_id_machine_id_fkey/,
    );
    await expect(
      t.db.updateTable('machines').set({ id: 'renamed' }).where('id', '=', machineId).execute(),
    ).rejects.toThrow(/temperature_readings_business_id_machine_id_fkey/);
    await t.db.updateTable('machines').set({ last_seen: NOW }).where('id', '=', machineId).execute();
    expect(await machine().executeTakeFirst()).toEqual({ id: machineId, last_seen: NOW });
    // Without its readings it may go.
    await t.db.deleteFrom('temperature_readings').where('machine_id', '=', machineId).execute();
    await t.db.deleteFrom('machines').where('id', '=', machineId).execute();
    expect(await machine().executeTakeFirst()).toBeUndefined();
  });
});
