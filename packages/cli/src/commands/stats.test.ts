import { expect, it } from 'bun:test';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { seedBusiness } from '../../../api/src/testing/hub.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker stats', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  it('rebuilds the monthly figures of a business; twice changes nothing', async () => {
    await seedBusiness(t.db, 'b1', { name: 'High Street' });
    t.advance(Date.parse('2026-10-15T09:00:00Z') - t.deps.now());
    const admin = await loggedIn();
    const created = await t.call(
      'patients',
      'create',
      {
        businessId: 'b1',
        patient: { displayId: '9434765919', name: { given: 'Ann', family: 'Lee' }, mobileNumber: '+447700900001' },
      },
      admin,
    );
    expect(created.status).toBe(200);
    t.advance(Date.parse('2026-11-20T09:00:00Z') - t.deps.now());
    await loggedIn(); // the October session has expired
    const first = await cli(['stats', 'rebuild', '--business', 'High Street', '--from', '2026-10']);
    expect([first.code, first.stdout]).toEqual([0, '2 months of 1 business recomputed: 2 rows changed\n']);
    const again = await cli(['stats', 'rebuild', '--business', 'b1', '--from', '2026-10', '--json']);
    expect(again.json()).toEqual({ businesses: 1, months: 2, changed: 0 });
    const rows = await t.db
      .selectFrom('monthly_business_stats')
      .select(['month', 'initial_patient_count', 'patient_delta'])
      .orderBy('month')
      .execute();
    expect(rows).toEqual([
      { month: 10, initial_patient_count: 0, patient_delta: 1 },
      { month: 11, initial_patient_count: 1, patient_delta: 0 },
    ]);
  });

  it('refuses a bad month or an unknown business, changing nothing', async () => {
    await loggedIn();
    await seedBusiness(t.db);
    for (const from of ['2026-13', '26-01', 'October']) {
      expect([from, (await cli(['stats', 'rebuild', '--from', from])).code]).toEqual([from, 2]);
    }
    const future = await cli(['stats', 'rebuild', '--from', '2999-01']);
    expect(future.code).toBe(1);
    expect(future.stderr).toContain('The first month to rebuild is in the future');
    const unknown = await cli(['stats', 'rebuild', '--business', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No business has the id or name "nope"');
    expect(await t.db.selectFrom('monthly_business_stats').selectAll().execute()).toEqual([]);
  });
});
