import { expect, it } from 'bun:test';
import type { UsageOverview } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { asSupport, testAuth } from '../../testing/hub.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { createOrder } from '../orders/create.ts';
import { usagePeriod } from './usage.ts';

/*
 * Usage stats (issue 21): a known estate (machines online, offline, out of order, archived and test;
 * orders new, loaded and collected; messages waiting and sent; patients of known ages) and collections
 * at known London hours and weekdays, on both sides of the night the clocks went back (Sunday
 * 25 October 2026, 01:00 UTC: 01:30 happens twice). "Now" is Wednesday 28 October 2026, 12:00 GMT.
 */

const NOW = '2026-10-28T12:00:00.000Z';
const at = (t: TestApi, moment: string) => t.advance(Date.parse(moment) - t.deps.now());

describeApi(
  'reports: usage stats',
  (t) => {
    let barcode = 0;

    async function patient(businessId: string, i: number, dateOfBirth: string) {
      const res = await t.call(
        'patients',
        'create',
        { businessId, patient: testPatient(i, { dateOfBirth }) },
        asSupport,
      );
      expect(res.status).toBe(200);
      return res.body.patient.id as string;
    }

    async function order(businessId: string, patientId: string) {
      const row = await createOrder(t.deps, systemActor('test'), { businessId, patientId, barcode: `U-${++barcode}` });
      return row.id;
    }

    let machineNo = 0;
    async function machine(
      businessId: string,
      name: string,
      slots: number,
      state: { online?: boolean; outOfOrder?: number; archived?: boolean; test?: boolean } = {},
    ) {
      const id = `m-${++machineNo}-${businessId.slice(-6)}`;
      await t.db
        .insertInto('machines')
        .values({
          id,
          business_id: businessId,
          name,
          number_of_slots: slots,
          online: state.online ?? true,
          last_seen: state.online === false ? Date.parse('2026-10-27T08:00:00Z') : null,
          out_of_order_at: state.outOfOrder ?? null,
          out_of_order_by_display: state.outOfOrder ? 'Sam Support' : null,
          archived_at: state.archived ? 1 : null,
          is_test: state.test ?? false,
          created: 1,
          updated: 1,
        })
        .execute();
      return id;
    }

    /** Puts an order in a locker, as the locker's BagLoaded does: the order loaded, its bag inside. */
    const load = async (id: string, machineId: string) => {
      const row = await t.db
        .updateTable('orders')
        .set({ status: 'loaded', machine_id: machineId })
        .where('id', '=', id)
        .returning(['business_id', 'barcode', 'reference'])
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('bags')
        .values({
          id: Bun.randomUUIDv7(),
          business_id: row.business_id,
          barcode: row.barcode,
          reference: row.reference,
          location: 'A1',
          machine_id: machineId,
          order_id: id,
          pin: null,
          created: 1,
          updated: 1,
        })
        .execute();
    };

    async function collect(id: string, moment: string) {
      at(t, moment);
      const res = await t.call('orders', 'markCollected', { id }, asSupport);
      expect(res.status).toBe(200);
    }

    async function outbox(businessId: string, status: 'pending' | 'success' | 'failed', created: number) {
      await t.db
        .insertInto('message_outbox')
        .values({
          id: Bun.randomUUIDv7(),
          business_id: businessId,
          channel: 'sms',
          recipient: '+447700900001',
          template_key: 'test',
          body: 'Your medicine is ready',
          status,
          next_attempt_at: created,
          created,
          updated: created,
        })
        .execute();
    }

    async function estate() {
      at(t, '2025-10-01T10:00:00Z');
      const a = await insertBusiness(t.db);
      const b = await insertBusiness(t.db);
      // Ages on 28-10-2026: 35 (36 tomorrow), 70 today, 16 (in no bucket), 44.
      const p35 = await patient(a, 1, '1990-10-29');
      const p70 = await patient(a, 2, '1956-10-28');
      const p16 = await patient(a, 3, '2010-01-01');
      const p44 = await patient(a, 4, '1982-05-05');
      const pb = await patient(b, 5, '1990-01-01');

      const m1 = await machine(a, 'Alpha', 10);
      const m2 = await machine(a, 'Bravo', 4, { online: false });
      const m3 = await machine(a, 'Charlie', 6, { outOfOrder: Date.parse('2026-10-26T09:00:00Z') });
      await machine(a, 'Delta (archived)', 8, { archived: true, online: false });
      await machine(a, 'Echo (test)', 8, { test: true, online: false });
      const mb = await machine(b, 'Foxtrot', 8, { online: false });

      // Live: A has 3 orders in Alpha, 1 in Bravo and 2 waiting to be loaded; B 2 in Foxtrot.
      for (let i = 0; i < 3; i++) await load(await order(a, p35), m1);
      await load(await order(a, p44), m2);
      await order(a, p44);
      await order(a, p70);
      for (let i = 0; i < 2; i++) await load(await order(b, pb), mb);

      // Collections of A (London time in the comments), oldest first.
      const early = await order(a, p44);
      const march = await order(a, p44);
      const friday = await order(a, p35);
      const saturday = await order(a, p70);
      const bst = await order(a, p16);
      const gmt = await order(a, p35);
      const foreign = await order(b, pb);
      await collect(early, '2025-10-15T10:00:00Z'); // before the 12 months: counted nowhere
      await collect(march, '2026-03-02T09:00:00Z'); // Mon 02-03-2026 09:00 GMT: open
      await collect(friday, '2026-10-23T17:30:00Z'); // Fri 18:30 BST: after closing
      await collect(saturday, '2026-10-24T08:30:00Z'); // Sat 09:30 BST: open
      await collect(bst, '2026-10-25T00:30:00Z'); // Sun 01:30 BST: closed all Sunday
      await collect(gmt, '2026-10-25T01:30:00Z'); // Sun 01:30 GMT, the second 01:30
      await collect(foreign, '2026-10-26T10:00:00Z'); // B: Mon 10:00 GMT: open

      // The outbox as the messaging worker left it: A 3 waiting, B 2; sent and failed ones never count.
      await t.db.deleteFrom('message_outbox').execute();
      const oldestA = Date.parse('2026-10-28T11:00:00Z');
      await outbox(a, 'pending', oldestA + 60_000);
      await outbox(a, 'pending', oldestA);
      await outbox(a, 'pending', oldestA + 120_000);
      await outbox(a, 'success', 5);
      await outbox(a, 'failed', 6);
      await outbox(b, 'pending', oldestA - 1000);
      await outbox(b, 'pending', oldestA + 5000);
      at(t, NOW);
      return { a, b, m1, m2, m3, mb, oldestA };
    }

    const usage = async (input: Record<string, unknown>, as: { cookie: string } = asSupport) =>
      t.call('reports', 'getUsageStats', input, as);
    const zeros = (n: number) => Array.from({ length: n }, () => 0);
    const set = (n: number, values: Record<number, number>) => zeros(n).map((z, i) => values[i] ?? z);

    it("gives a business's live figures and its last 12 months' analyses exactly", async () => {
      const e = await estate();
      const res = await usage({ businessId: e.a });
      expect(res.status).toBe(200);
      const body = res.body as UsageOverview;
      const nameA = `Pharmacy ${e.a.slice(-6)}`;
      expect(body.businessId).toBe(e.a);
      expect([body.from, body.to]).toEqual([Date.parse('2025-11-01T00:00:00Z'), Date.parse(NOW)]);
      expect(body.liveOrders).toEqual({ total: 6, awaitingLoad: 2, inMachines: 4 });
      const m = (id: string, name: string, slotsUsed: number, numberOfSlots: number) => ({
        machineId: id,
        machineName: name,
        businessId: e.a,
        businessName: nameA,
        slotsUsed,
        numberOfSlots,
      });
      // Fullest first: Alpha 3/10 = 30 %, Bravo 1/4 = 25 %, Charlie 0/6.
      expect(body.occupancy).toEqual({
        machineCount: 3,
        slotsTotal: 20,
        slotsUsed: 4,
        machines: [m(e.m1, 'Alpha', 3, 10), m(e.m2, 'Bravo', 1, 4), m(e.m3, 'Charlie', 0, 6)],
      });
      expect(body.machinesDown).toEqual({
        total: 2,
        offline: 1,
        outOfOrder: 1,
        machines: [
          {
            machineId: e.m3,
            machineName: 'Charlie',
            businessId: e.a,
            businessName: nameA,
            online: true,
            lastSeen: null,
            outOfOrderSince: Date.parse('2026-10-26T09:00:00Z'),
          },
          {
            machineId: e.m2,
            machineName: 'Bravo',
            businessId: e.a,
            businessName: nameA,
            online: false,
            lastSeen: Date.parse('2026-10-27T08:00:00Z'),
            outOfOrderSince: null,
          },
        ],
      });
      expect(body.messagesWaiting).toEqual({ count: 3, oldestCreated: e.oldestA });
      // Collecting patients, each once: 35 (twice collected), 70, 44; 16 is in no bucket.
      expect(body.ageRange).toEqual({
        age18To30: 0,
        age30To40: 1,
        age40To50: 1,
        age50To60: 0,
        age60To70: 0,
        age70plus: 1,
      });
      const months = Object.keys(body.channelSizeUsage);
      expect(months).toEqual(usagePeriod(Date.parse(NOW), false).months);
      expect([months.length, months[0], months[11]]).toEqual([12, '2025-11', '2026-10']);
      expect(body.channelSizeUsage['2026-03']).toEqual({ small: 0, medium: 0, large: 0, other: 1 });
      expect(body.channelSizeUsage['2026-10']).toEqual({ small: 0, medium: 0, large: 0, other: 4 });
      expect(body.channelSizeUsage['2025-11']).toEqual({ small: 0, medium: 0, large: 0, other: 0 });
      // Monday first: Mon 09:00 and Sat 09:30 open; Fri 18:30 and Sunday's two 01:30s out of hours.
      expect(body.dayOfWeekAnalysis).toEqual({
        duringOpeningHours: set(7, { 0: 1, 5: 1 }),
        outOfHours: set(7, { 4: 1, 6: 2 }),
      });
      expect(body.timeOfDayAnalysis).toEqual({
        duringOpeningHours: set(24, { 9: 2 }),
        outOfHours: set(24, { 1: 2, 18: 1 }),
      });
    }, 60_000);

    it("gives support the estate: every business's machines and the last 7 days' collections", async () => {
      const e = await estate();
      const res = await usage({});
      expect(res.status).toBe(200);
      const body = res.body as UsageOverview;
      expect(body.businessId).toBeNull();
      // 7 London days, today included: from Thursday 22-10-2026 00:00 BST.
      expect([body.from, body.to]).toEqual([Date.parse('2026-10-21T23:00:00Z'), Date.parse(NOW)]);
      expect(body.liveOrders).toEqual({ total: 8, awaitingLoad: 2, inMachines: 6 });
      expect(body.occupancy.machineCount).toBe(4);
      expect([body.occupancy.slotsTotal, body.occupancy.slotsUsed]).toEqual([28, 6]);
      // Alpha 30 %; Bravo and Foxtrot both 25 % (by business name); Charlie 0 %.
      const nameOf = (id: string) => `Pharmacy ${id.slice(-6)}`;
      const tie =
        nameOf(e.a).localeCompare(nameOf(e.b)) < 0
          ? [
              [e.m2, 1],
              [e.mb, 2],
            ]
          : [
              [e.mb, 2],
              [e.m2, 1],
            ];
      expect(body.occupancy.machines.map((m) => [m.machineId, m.slotsUsed])).toEqual([[e.m1, 3], ...tie, [e.m3, 0]]);
      expect([body.machinesDown.total, body.machinesDown.offline, body.machinesDown.outOfOrder]).toEqual([3, 2, 1]);
      // Out of order first, then by business and machine name.
      const [nameA, nameB] = [nameOf(e.a), nameOf(e.b)];
      const offline =
        nameA.localeCompare(nameB) < 0
          ? [
              [e.m2, nameA],
              [e.mb, nameB],
            ]
          : [
              [e.mb, nameB],
              [e.m2, nameA],
            ];
      const expectedDown = [[e.m3, nameA], ...offline];
      expect(body.machinesDown.machines.map((m) => [m.machineId, m.businessName])).toEqual(expectedDown);
      expect(body.messagesWaiting).toEqual({ count: 5, oldestCreated: e.oldestA - 1000 });
      // A's four collections since Friday and B's Monday one; March and last October are out of the 7 days.
      expect(body.channelSizeUsage).toEqual({ '2026-10': { small: 0, medium: 0, large: 0, other: 5 } });
      expect(body.dayOfWeekAnalysis).toEqual({
        duringOpeningHours: set(7, { 0: 1, 5: 1 }),
        outOfHours: set(7, { 4: 1, 6: 2 }),
      });
      expect(body.timeOfDayAnalysis).toEqual({
        duringOpeningHours: set(24, { 9: 1, 10: 1 }),
        outOfHours: set(24, { 1: 2, 18: 1 }),
      });
      // 35, 70 and 16 of A, and B's patient (36).
      expect(body.ageRange).toEqual({
        age18To30: 0,
        age30To40: 2,
        age40To50: 0,
        age50To60: 0,
        age60To70: 0,
        age70plus: 1,
      });
    }, 60_000);

    it('keeps pharmacy users to their own business: no estate, another business is 404', async () => {
      const e = await estate();
      const pharmacy = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: e.a }] });
      const own = await usage({ businessId: e.a }, pharmacy);
      expect(own.status).toBe(200);
      expect([own.body.liveOrders.total, own.body.messagesWaiting.count]).toEqual([6, 3]);
      expect(JSON.stringify(own.body)).not.toContain(e.mb);
      const other = await usage({ businessId: e.b }, pharmacy);
      expect([other.status, other.body.error.code]).toEqual([404, 'NOT_FOUND']);
      const all = await usage({}, pharmacy);
      expect([
        all.status,
        all.body.error.code,
        all.body.error.details?.[0]?.id ?? all.body.error.fields?.[0]?.id,
      ]).toEqual([400, 'VALIDATION', 'REQUIRED']);
    }, 60_000);

    it('refuses bad input with 400, an unknown business with 404, nobody with 401', async () => {
      for (const bad of [{ businessId: '' }, { businessId: 7 }, { businessId: 'x'.repeat(5000) }]) {
        const res = await usage(bad);
        expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'VALIDATION']);
      }
      expect((await usage({ businessId: Bun.randomUUIDv7() })).status).toBe(404);
      expect((await t.call('reports', 'getUsageStats', {})).status).toBe(401);
    });
  },
  // The test kit's support cookie, and real sessions (t.signIn) for the pharmacy user.
  (base) => ({
    auth: {
      principalOf: async (request, ...rest) =>
        (await testAuth.principalOf(request, ...rest)) ?? base.auth.principalOf(request, ...rest),
    },
  }),
);
