import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeApi } from '../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../testing/hub.ts';
import { insertBusiness } from '../testing/patients.ts';
import { emailContains, SEARCH_COLUMNS, SEARCH_TEXT } from './contains-repository.ts';

// "Contains" search on the lists not covered by their own area's tests (businesses, patients and users
// are): a middle fragment in any case finds the row, and %, _ and \ mean themselves.
describeApi(
  'contains search',
  (t) => {
    it('finds groups by a fragment from the middle of the name, in any case, % only as a percent', async () => {
      for (const name of ['North West', 'South 100% Care', 'Southend 1000']) {
        expect((await t.call('groups', 'createGroup', { name }, asSupport)).status).toBe(200);
      }
      const names = async (filter: string) =>
        (await t.call('groups', 'listGroups', { filter }, asSupport)).body.groups.map((g) => g.name);
      expect(await names('TH W')).toEqual(['North West']);
      expect(await names('oUTh')).toEqual(['South 100% Care', 'Southend 1000']);
      expect(await names('0%')).toEqual(['South 100% Care']);
      expect(await names('%')).toEqual(['South 100% Care']);
      expect(await names('_')).toEqual([]);
      expect(await names('\\')).toEqual([]);
      const info = await t.call('groups', 'listGroupsInfo', { filter: 'END' }, asSupport);
      expect(info.body.data.map((g) => g.name)).toEqual(['Southend 1000']);
    });

    it("finds a business's machines and test machines by a fragment of the name, in any case", async () => {
      await seedBusiness(t.db);
      for (const name of ['Front Locker', 'Back_Locker', 'Side door']) {
        await t.call('machines', 'createMachine', { businessId: 'b1', name, numberOfSlots: 8 }, asSupport);
      }
      await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA locker', numberOfSlots: 6 }, asSupport);
      const names = async (filter: string) =>
        (await t.call('machines', 'listMachines', { businessId: 'b1', filter }, asSupport)).body.machines.map(
          (m) => m.name,
        );
      expect(await names('LOCK')).toEqual(['Back_Locker', 'Front Locker']);
      expect(await names('e d')).toEqual(['Side door']);
      expect(await names('_')).toEqual(['Back_Locker']);
      expect(await names('%')).toEqual([]);
    });

    it("finds a business's sign-ups by a fragment of the name, email or mobile, in any case", async () => {
      const businessId = await insertBusiness(t.db);
      const add = (firstName: string, lastName: string, email: string, mobileNumber: string) =>
        t.call(
          'signUps',
          'create',
          {
            businessId,
            signUp: {
              firstName,
              lastName,
              dateOfBirth: '1990-12-10',
              email,
              mobileNumber,
              address: { line1: '1 High St', line2: null, line3: null, postTown: 'LEEDS', postcode: 'LS1 4AP' },
            },
          },
          asSupport,
        );
      expect((await add('Ada', 'Lovelace', 'ada@example.com', '07700 900123')).status).toBe(200);
      expect((await add('Grace', 'Hopper', 'g_h@navy.test', '07700 900456')).status).toBe(200);
      const names = async (filter: string) =>
        (await t.call('signUps', 'list', { businessId, filter }, asSupport)).body.signUps.map((s) => s.lastName);
      expect(await names('VELA')).toEqual(['Lovelace']);
      expect(await names('a lov')).toEqual(['Lovelace']);
      expect(await names('NAVY')).toEqual(['Hopper']);
      expect(await names('900456')).toEqual(['Hopper']);
      expect(await names('07700 900 1')).toEqual(['Lovelace']);
      expect(await names('_')).toEqual(['Hopper']);
      expect(await names('%')).toEqual([]);
    });

    it("finds a machine's contents by a fragment of the barcode, reference or slot, in any case", async () => {
      await seedBusiness(t.db);
      const machine = (
        await t.call('machines', 'createMachine', { businessId: 'b1', name: 'Front', numberOfSlots: 8 }, asSupport)
      ).body.machine;
      const bag = (id: string, barcode: string, reference: string | null, location: string) =>
        t.db
          .insertInto('bags')
          .values({
            id,
            business_id: 'b1',
            barcode,
            reference,
            location,
            machine_id: machine.id,
            order_id: null,
            pin: null,
            created: 1,
            updated: 1,
          })
          .execute();
      await bag('bag1', 'RX-000123', 'ref-abc', 'A1');
      await bag('bag2', 'RX-000456', '50% off', 'B2');
      const barcodes = async (filter: string) =>
        (
          await t.call('bags', 'listBags', { businessId: 'b1', machineId: machine.id, filter }, asSupport)
        ).body.bags.map((b) => b.barcode);
      expect(await barcodes('0012')).toEqual(['RX-000123']);
      expect(await barcodes('F AB')).toEqual([]);
      expect(await barcodes('EF-AB')).toEqual(['RX-000123']);
      expect(await barcodes('b2')).toEqual(['RX-000456']);
      expect(await barcodes('%')).toEqual(['RX-000456']);
    });

    it('answers every list search from its trigram index when the database has pg_trgm', async () => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(t.db);
      // PostgreSQL and PGlite (createDb loads the extension) both have it; an index that the query's
      // expression no longer matches would show here as a sequential scan.
      expect(rows[0]?.n).toBe(1);
      await sql`set enable_seqscan = off`.execute(t.db);
      const plan = async (table: string, where: ReturnType<typeof sql>) =>
        (
          await sql<{ 'QUERY PLAN': string }>`explain select 1 from ${sql.table(table)} where ${where}`.execute(t.db)
        ).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      try {
        for (const [table, expression] of Object.entries(SEARCH_TEXT)) {
          expect(`${table}: ${await plan(table, sql`${sql.raw(expression)} ilike ${'%abc%'}`)}`).toContain(
            `Bitmap Index Scan on ${table === 'patient_sign_ups' ? 'patient_sign_ups' : table}_`,
          );
        }
        // Patients' index holds the rows not waiting for the search-index job (migration 0053): the list's
        // indexed half says so, as here. Each column alone is served by the one index over the columns.
        for (const column of Object.keys(SEARCH_COLUMNS.patients)) {
          const where = sql`not search_pending and ${sql.ref(column)} ilike ${'%abc%'}`;
          expect(`patients.${column}: ${await plan('patients', where)}`).toContain(
            'Bitmap Index Scan on patients_search_trgm_idx',
          );
        }
        // An email with its '@' asks the index for the part up to it; the whole text is a filter on what it finds.
        const email = await plan(
          'patients',
          sql`not search_pending and ${emailContains('email', 'rhys.jones@example')}`,
        );
        expect(email).toContain("Index Cond: (email ~~* '%rhys.jones@%'::text)");
        expect(email).toContain("strpos(lower(email), 'rhys.jones@example'::text) > 0");
      } finally {
        await sql`reset enable_seqscan`.execute(t.db);
      }
    });
  },
  withTestAuth,
);
