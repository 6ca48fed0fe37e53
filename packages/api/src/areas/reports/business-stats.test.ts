import { expect, it } from 'bun:test';
import type { MonthlyBusinessStats } from '@medlocker/core';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { supportSession, validBusiness } from '../../testing/businesses.ts';
import { storeMonth } from '../../testing/monthly-stats.ts';

/*
 * reports/listBusinessStats (issue 21): a business's stored monthly rows, a year a page, newest first,
 * from lastDate's London month back to the month the business was added. The test clock is
 * 2 November 2026 (T0); the business is added on 15 March 2025, so it has 21 months.
 */

const months = (stats: MonthlyBusinessStats[]) => stats.map((s) => `${s.year}-${String(s.month).padStart(2, '0')}`);

describeApi('reports: monthly figures of a business', (t) => {
  const at = (moment: string) => t.advance(Date.parse(moment) - t.deps.now());

  async function estate(test: TestApi) {
    const { as } = await supportSession(test);
    const now = test.deps.now();
    at('2025-03-15T10:00:00Z');
    const business = (await test.call('businesses', 'createBusiness', validBusiness('Boots Leeds'), as)).body.business;
    const other = (await test.call('businesses', 'createBusiness', validBusiness('Lloyds York'), as)).body.business;
    test.advance(now - test.deps.now());
    return { as, businessId: business.id as string, otherId: other.id as string };
  }

  const list = (input: Record<string, unknown>, as: { cookie: string }) =>
    t.call('reports', 'listBusinessStats', input, as);

  it('gives every stored figure of a month exactly, and empty months as zeros, newest first', async () => {
    const e = await estate(t);
    const october = {
      businessId: e.businessId,
      year: 2026,
      month: 10,
      notificationsSent: 40,
      ordersAdded: 31,
      ordersLoaded: 30,
      ordersCollected: 25,
      ordersExpired: 3,
      ordersCancelled: 2,
      ordersRemoved: 1,
      collectedWithinWindow: 24,
      totalPickupMinutes: 4321,
      medianPickupMinutes: 95,
      paidAmount: 11_890,
      exemptionsByCode: { A: 3, F: 1 },
      pinReveals: 2,
      messagesByChannel: { sms: { sent: 30, failed: 1 }, email: { sent: 9, failed: 0 } },
      machineDowntimeMinutes: 75,
      alarmsByCode: { EM_0001: 2 },
      initialPatientCount: 120,
      patientDelta: -2,
    } satisfies MonthlyBusinessStats;
    await storeMonth(t.db, october);
    await storeMonth(t.db, { businessId: e.otherId, year: 2026, month: 10, ordersAdded: 999 });
    const res = await list({ businessId: e.businessId }, e.as);
    expect(res.status).toBe(200);
    expect(months(res.body.stats)).toEqual([
      '2026-11',
      '2026-10',
      '2026-09',
      '2026-08',
      '2026-07',
      '2026-06',
      '2026-05',
      '2026-04',
      '2026-03',
      '2026-02',
      '2026-01',
      '2025-12',
    ]);
    expect(res.body.stats[1]).toEqual(october);
    expect(res.body.stats[0]).toMatchObject({ ordersAdded: 0, medianPickupMinutes: null, exemptionsByCode: {} });
  });

  it('pages back a year at a time and stops at the month the business was added', async () => {
    const e = await estate(t);
    const first = await list({ businessId: e.businessId }, e.as);
    expect(first.body.nextToken).toEqual(expect.any(String));
    const second = await list({ businessId: e.businessId, nextToken: first.body.nextToken }, e.as);
    expect(second.status).toBe(200);
    expect(months(second.body.stats)).toEqual([
      '2025-11',
      '2025-10',
      '2025-09',
      '2025-08',
      '2025-07',
      '2025-06',
      '2025-05',
      '2025-04',
      '2025-03',
    ]);
    expect(second.body.nextToken).toBeNull();
  });

  it("ends at lastDate's London month, never after this month nor before the business was added", async () => {
    const e = await estate(t);
    // lastDate is a London day: its month is the newest of the page, a year back from there.
    const may = await list({ businessId: e.businessId, lastDate: '2026-05-31' }, e.as);
    expect(months(may.body.stats).slice(0, 2)).toEqual(['2026-05', '2026-04']);
    expect(months(may.body.stats).at(-1)).toBe('2025-06');
    const future = await list({ businessId: e.businessId, lastDate: '2030-01-01' }, e.as);
    expect(months(future.body.stats)[0]).toBe('2026-11');
    const before = await list({ businessId: e.businessId, lastDate: '2024-12-31' }, e.as);
    expect([before.status, before.body.stats, before.body.nextToken]).toEqual([200, [], null]);
    const start = await list({ businessId: e.businessId, lastDate: '2025-04-02' }, e.as);
    expect([months(start.body.stats), start.body.nextToken]).toEqual([['2025-04', '2025-03'], null]);
  });

  it("keeps pharmacy users to their own business: another's is 404", async () => {
    const e = await estate(t);
    await storeMonth(t.db, { businessId: e.otherId, year: 2026, month: 11, paidAmount: 5000 });
    const pharmacy = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: e.businessId }],
    });
    const own = await list({ businessId: e.businessId }, pharmacy);
    expect([own.status, own.body.stats.length]).toEqual([200, 12]);
    const other = await list({ businessId: e.otherId }, pharmacy);
    expect([other.status, other.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(JSON.stringify(other.body)).not.toContain('5000');
    const nobody = await t.call('reports', 'listBusinessStats', { businessId: e.businessId });
    expect(nobody.status).toBe(401);
  });

  it('refuses a bad lastDate or token with 400 and an unknown business with 404', async () => {
    const e = await estate(t);
    const forged = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const [bad, path] of [
      [{ lastDate: '2026-02-30' }, 'lastDate'],
      [{ lastDate: '01-10-2026' }, 'lastDate'],
      [{ lastDate: 20261001 }, 'lastDate'],
      [{ nextToken: 'not a token' }, 'nextToken'],
      [{ nextToken: forged(['x']) }, 'nextToken'],
      [{ nextToken: forged([-1]) }, 'nextToken'],
      [{ nextToken: forged([1.5]) }, 'nextToken'],
      [{ nextToken: forged([1e20]) }, 'nextToken'],
      [{ nextToken: forged([24000, 'x']) }, 'nextToken'],
    ] as const) {
      const res = await list({ businessId: e.businessId, ...bad }, e.as);
      expect([JSON.stringify(bad), res.status, res.body.error?.details?.[0]?.path]).toEqual([
        JSON.stringify(bad),
        400,
        path,
      ]);
    }
    const unknown = await list({ businessId: 'b-nope' }, e.as);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
