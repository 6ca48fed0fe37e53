import { expect, it } from 'bun:test';
import type { TestApi } from '../../testing/api.ts';
import { describeApi } from '../../testing/api.ts';
import { supportSession, validBusiness } from '../../testing/businesses.ts';
import { storeMonth } from '../../testing/monthly-stats.ts';

/*
 * groupReports/listMonthlyStats (issue 21): chosen businesses of a group side by side for the 12
 * London months ending at a chosen month, with each month's totals.
 */

describeApi('groupReports: a group compared month by month', (t) => {
  async function estate(test: TestApi) {
    const { as } = await supportSession(test);
    const group = (await test.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
    const otherGroup = (await test.call('groups', 'createGroup', { name: 'South' }, as)).body.group;
    const add = async (name: string) =>
      (await test.call('businesses', 'createBusiness', validBusiness(name), as)).body.business.id as string;
    const leeds = await add('Boots Leeds');
    const york = await add('Boots York');
    const bristol = await add('Boots Bristol');
    const loose = await add('Lloyds Hull');
    await test.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [leeds, york] }, as);
    await test.call('businesses', 'linkGroup', { groupId: otherGroup.id, businessIds: [bristol] }, as);
    return { as, groupId: group.id as string, otherGroupId: otherGroup.id as string, leeds, york, bristol, loose };
  }

  const compare = (input: Record<string, unknown>, as: { cookie: string }) =>
    t.call('groupReports', 'listMonthlyStats', input, as);

  it('puts the chosen businesses side by side for 12 months, oldest first, with the totals', async () => {
    const e = await estate(t);
    await storeMonth(t.db, {
      businessId: e.leeds,
      year: 2026,
      month: 3,
      ordersCollected: 10,
      totalPickupMinutes: 600,
      medianPickupMinutes: 50,
      paidAmount: 1990,
      exemptionsByCode: { A: 2, F: 1 },
      messagesByChannel: { sms: { sent: 12, failed: 1 } },
      alarmsByCode: { EM_0001: 1 },
    });
    await storeMonth(t.db, {
      businessId: e.york,
      year: 2026,
      month: 3,
      ordersCollected: 5,
      totalPickupMinutes: 150,
      medianPickupMinutes: 20,
      paidAmount: 1000,
      exemptionsByCode: { A: 1 },
      messagesByChannel: { sms: { sent: 4, failed: 0 }, email: { sent: 2, failed: 1 } },
      alarmsByCode: { EM_0003: 2 },
    });
    // Outside the 12 months (April 2025 – March 2026): never shown.
    await storeMonth(t.db, { businessId: e.leeds, year: 2025, month: 3, ordersCollected: 77 });
    await storeMonth(t.db, { businessId: e.leeds, year: 2026, month: 4, ordersCollected: 88 });
    const res = await compare(
      { groupId: e.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.york, e.leeds, e.york] },
      e.as,
    );
    expect(res.status).toBe(200);
    expect(res.body.months[0]).toEqual({ year: 2025, month: 4 });
    expect(res.body.months.at(-1)).toEqual({ year: 2026, month: 3 });
    expect(res.body.months).toHaveLength(12);
    expect(res.body.businesses.map((b: { name: string }) => b.name)).toEqual(['Boots York', 'Boots Leeds']);
    const leeds = res.body.businesses[1] as (typeof res.body.businesses)[number];
    expect(leeds.stats.map((s: { ordersCollected: number }) => s.ordersCollected)).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10,
    ]);
    expect(leeds.stats[11]).toMatchObject({ businessId: e.leeds, year: 2026, month: 3, medianPickupMinutes: 50 });
    expect(res.body.totals[11]).toMatchObject({
      year: 2026,
      month: 3,
      ordersCollected: 15,
      totalPickupMinutes: 750,
      medianPickupMinutes: null,
      paidAmount: 2990,
      exemptionsByCode: { A: 3, F: 1 },
      messagesByChannel: { sms: { sent: 16, failed: 1 }, email: { sent: 2, failed: 1 } },
      alarmsByCode: { EM_0001: 1, EM_0003: 2 },
    });
    expect(res.body.totals[0]).toMatchObject({ ordersCollected: 0, paidAmount: 0, exemptionsByCode: {} });
  });

  it("refuses a business not linked to the group as 404, whether another group's, in none, or missing", async () => {
    const e = await estate(t);
    for (const id of [e.bristol, e.loose, 'b-nope']) {
      const res = await compare(
        { groupId: e.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.leeds, id] },
        e.as,
      );
      expect([id, res.status, res.body.error.code]).toEqual([id, 404, 'NOT_FOUND']);
    }
    const noGroup = await compare(
      { groupId: 'g-nope', endMonth: 3, endYear: 2026, selectedBusinessIds: [e.leeds] },
      e.as,
    );
    expect(noGroup.status).toBe(404);
  });

  it('lets pharmacy users compare only in their own groups', async () => {
    const e = await estate(t);
    await storeMonth(t.db, { businessId: e.bristol, year: 2026, month: 3, paidAmount: 4242 });
    const member = await t.signIn({ roles: [{ name: 'Group', resourceType: 'group', resourceId: e.groupId }] });
    const own = await compare(
      { groupId: e.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.leeds, e.york] },
      member,
    );
    expect([own.status, own.body.businesses?.length]).toEqual([200, 2]);
    const other = await compare(
      { groupId: e.otherGroupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.bristol] },
      member,
    );
    expect([other.status, other.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(JSON.stringify(other.body)).not.toContain('4242');
    // A Business role on one of the group's businesses is not a role on the group.
    const shop = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: e.leeds }] });
    const notGroup = await compare(
      { groupId: e.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.leeds] },
      shop,
    );
    expect(notGroup.status).toBe(404);
  });

  it('refuses bad months, years and selections with 400', async () => {
    const e = await estate(t);
    const base = { groupId: e.groupId, endMonth: 3, endYear: 2026, selectedBusinessIds: [e.leeds] };
    for (const [bad, path] of [
      [{ endMonth: 0 }, 'endMonth'],
      [{ endMonth: 13 }, 'endMonth'],
      [{ endMonth: 2.5 }, 'endMonth'],
      [{ endYear: 1999 }, 'endYear'],
      [{ endYear: 'soon' }, 'endYear'],
      [{ selectedBusinessIds: [] }, 'selectedBusinessIds'],
      [{ selectedBusinessIds: 'b1' }, 'selectedBusinessIds'],
      [{ selectedBusinessIds: Array.from({ length: 51 }, (_, i) => `b${i}`) }, 'selectedBusinessIds'],
    ] as const) {
      const res = await compare({ ...base, ...bad }, e.as);
      expect([JSON.stringify(bad), res.status, res.body.error?.details?.[0]?.path]).toEqual([
        JSON.stringify(bad),
        400,
        path,
      ]);
    }
    // A list too long is told in items, not characters; an empty one as empty.
    const many = await compare({ ...base, selectedBusinessIds: Array.from({ length: 51 }, () => e.leeds) }, e.as);
    expect(many.body.error.details).toEqual([
      { path: 'selectedBusinessIds', id: 'INVALID_LENGTH', message: 'Value must have at most 50 items' },
    ]);
  });
});
