import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { type Demo, NHS_PRESCRIPTION_CHARGE, type SeedDemoOptions } from './seed/context.ts';
import { DEMO_INTEGRATION_PARTNERS } from './seed/data.ts';
import { seedAdmin, seedEstate, seedMachines } from './seed/estate.ts';
import { seedOrders } from './seed/orders.ts';
import { seedPatients } from './seed/patients.ts';

export type { SeedDemoOptions };

/** Runs `fill` in one transaction on a database that has no user yet; answers whether it ran. */
function intoEmpty(
  db: Kysely<Database>,
  opts: SeedDemoOptions,
  fill: (demo: Demo) => Promise<void>,
  settings: { supportSecondFactorRequired: boolean } = { supportSecondFactorRequired: true },
) {
  const now = opts.now ?? Date.now();
  return db.transaction().execute(async (tx) => {
    // Two processes starting together must not both seed: the second waits here, then sees the users.
    await sql`select pg_advisory_xact_lock(hashtext('medlocker:seed-demo'))`.execute(tx);
    const existing = await tx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return { seeded: false };
    const demo: Demo = {
      tx,
      now,
      id: (at) => Bun.randomUUIDv7('hex', at),
      adminId: '',
      businesses: new Map(),
      machines: new Map(),
      patients: [],
      orderPin: opts.orderPin,
    };
    await seedAdmin(demo, opts);
    await fill(demo);
    await tx
      .insertInto('global_settings')
      .values({
        nhs_prescription_charge: NHS_PRESCRIPTION_CHARGE,
        support_second_factor_required: settings.supportSecondFactorRequired,
        updated: now,
        updated_by: demo.adminId,
      })
      .execute();
    return { seeded: true };
  });
}

/**
 * The first support admin of an empty database, and the global settings' defaults: nothing else (a live
 * database in production starts with no demo data). Does nothing once any user exists.
 */
export function seedFirstAdmin(db: Kysely<Database>, opts: SeedDemoOptions): Promise<{ seeded: boolean }> {
  return intoEmpty(db, opts, async () => {});
}

/**
 * Fills an empty database with a believable demo: a support admin, 3 businesses (1 archived), 2 groups,
 * machines (a test one, an out-of-order one), 20 patients, sign-ups, orders in every status with bags and
 * history, machine events, temperature readings, the global settings and example integration partners.
 * Does nothing once any user exists, so it is safe to call on every start. All in one transaction: a
 * failed seed leaves nothing. Never in production (the api seeds the first admin alone there).
 * The demo is the one world where support staff need no second factor (set here, explicitly: the
 * end-to-end suite and `npm start` sign its admin in with a password alone); the first admin of a
 * production database gets the default, on (docs/decisions/auth.md).
 */
export function seedDemo(db: Kysely<Database>, opts: SeedDemoOptions): Promise<{ seeded: boolean }> {
  return intoEmpty(
    db,
    opts,
    async (demo) => {
      await seedEstate(demo);
      await seedMachines(demo);
      await seedPatients(demo);
      await seedOrders(demo);
      await demo.tx
        .insertInto('integration_partners')
        .values(
          DEMO_INTEGRATION_PARTNERS.map((p) => ({
            id: demo.id(demo.now),
            name: p.name,
            contact_email: p.contactEmail,
            suppress_patient_messages: p.suppressPatientMessages,
            created: demo.now,
            updated: demo.now,
          })),
        )
        .execute();
    },
    { supportSecondFactorRequired: false },
  );
}
