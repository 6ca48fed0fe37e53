import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { indexPendingSearch, SEARCH_QUIET_MS } from './search-index-repository.ts';

// "Contains" search stays exact whoever wrote the patient, whether or not the job has indexed the rows
// an import wrote (search_pending, migration 0053).
describeApi('patients search while imports are indexed by the job', (t) => {
  const support = async () => ({ cookie: (await t.signIn({ support: true })).cookie });

  /** The four things a person searches a patient by, each as typed: a part of each field. */
  const searches = (i: number) => {
    const p = testPatient(i);
    return [`given${i} family`, `patient${i}@example`, p.displayId.slice(4), `${p.mobileNumber?.slice(-6)}`];
  };

  async function setUp() {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const found = async (filter: string) =>
      ((await t.call('patients', 'list', { businessId, filter }, as)).body.patients ?? []).map((p) => p.id);
    const pending = async () =>
      (await t.db.selectFrom('patients').select('id').where('search_pending', '=', true).execute()).map((r) => r.id);
    const waitingJobs = async () =>
      t.db.selectFrom('jobs').select(['dedupe_key', 'run_after']).where('type', '=', 'patients.searchIndex').execute();
    return { as, businessId, found, pending, waitingJobs };
  }

  it('finds a patient by each field as soon as it is created, without waiting for any job', async () => {
    const { as, businessId, found, pending } = await setUp();
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(417) }, as);
    expect(await pending()).toEqual([]);
    for (const filter of searches(417)) expect(await found(filter)).toEqual([body.patient.id]);
  });

  it('finds imported patients by each field the moment the import commits, and still once the job has indexed them', async () => {
    const { as, businessId, found, pending, waitingJobs } = await setUp();
    const patients = [testPatient(417), testPatient(418)];
    const { body } = await t.call('patients', 'batchUpsertPatients', { businessId, patients }, as);
    const ids = body.results.map((r) => r.id as string);
    expect((await pending()).sort()).toEqual([...ids].sort());
    for (const filter of searches(418)) expect(await found(filter)).toEqual([ids[1] as string]);
    // One job, due once the import has been quiet for a full period.
    const jobs = await waitingJobs();
    expect(jobs).toHaveLength(1);
    expect(Number(jobs[0]?.run_after)).toBeGreaterThanOrEqual(t.deps.now() + SEARCH_QUIET_MS);

    // While the import may still be sending batches the job leaves the rows alone; after, it indexes them.
    expect(await indexPendingSearch(t.db, t.deps.now() + SEARCH_QUIET_MS / 2)).toBe(0);
    expect(await indexPendingSearch(t.db, t.deps.now() + SEARCH_QUIET_MS)).toBe(2);
    expect(await pending()).toEqual([]);
    for (const filter of searches(418)) expect(await found(filter)).toEqual([ids[1] as string]);
    for (const filter of searches(417)) expect(await found(filter)).toEqual([ids[0] as string]);
  });

  it('queues no job for a re-import that changes nothing, and marks a changed row for the job again', async () => {
    const { as, businessId, found, pending, waitingJobs } = await setUp();
    const patients = [testPatient(417), testPatient(418)];
    const first = await t.call('patients', 'batchUpsertPatients', { businessId, patients }, as);
    await indexPendingSearch(t.db, t.deps.now() + SEARCH_QUIET_MS);
    await t.db.deleteFrom('jobs').execute();
    t.advance(3 * SEARCH_QUIET_MS);
    await t.call('patients', 'batchUpsertPatients', { businessId, patients }, as);
    expect(await waitingJobs()).toEqual([]);

    const changed = [testPatient(417), testPatient(418, { email: 'moved418@example.org' })];
    await t.call('patients', 'batchUpsertPatients', { businessId, patients: changed }, as);
    expect(await pending()).toEqual([first.body.results[1]?.id as string]);
    expect(await waitingJobs()).toHaveLength(1);
    expect(await found('moved418@example')).toEqual([first.body.results[1]?.id as string]);
    expect(await found('patient418@example')).toEqual([]);
  });

  it('no longer finds a patient by their old details after an edit, indexed or not yet', async () => {
    const { as, businessId, found } = await setUp();
    const created = await t.call('patients', 'create', { businessId, patient: testPatient(417) }, as);
    const imported = await t.call('patients', 'batchUpsertPatients', { businessId, patients: [testPatient(418)] }, as);
    const edits: [string, number, number][] = [
      [created.body.patient.id, 417, 517],
      [imported.body.results[0]?.id as string, 418, 518],
    ];
    for (const [id, before, after] of edits) {
      const res = await t.call('patients', 'update', { id, patient: testPatient(after) }, as);
      expect(res.status).toBe(200);
      for (const filter of searches(before)) expect(await found(filter)).toEqual([]);
      for (const filter of searches(after)) expect(await found(filter)).toEqual([id]);
    }
  });

  it('no longer finds an erased patient by name, email or mobile, indexed or not yet', async () => {
    const { businessId, found } = await setUp();
    const admin = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] }],
    });
    const created = await t.call('patients', 'create', { businessId, patient: testPatient(417) }, admin);
    const imported = await t.call(
      'patients',
      'batchUpsertPatients',
      { businessId, patients: [testPatient(418)] },
      admin,
    );
    const gone: [string, number][] = [
      [created.body.patient.id, 417],
      [imported.body.results[0]?.id as string, 418],
    ];
    for (const [patientId, i] of gone) {
      expect((await t.call('dataProtection', 'erasePatient', { patientId }, admin)).status).toBe(200);
      const [name, email, , mobile] = searches(i);
      for (const filter of [name, email, mobile] as string[]) expect(await found(filter)).toEqual([]);
    }
  });

  it('after indexing a large import, vacuums and analyses the table, so the planner stops scanning those rows and the pending index holds none', async () => {
    const { as, businessId, found } = await setUp();
    const patients = Array.from({ length: 1_000 }, (_, i) => testPatient(2_000 + i));
    expect((await t.call('patients', 'batchUpsertPatients', { businessId, patients }, as)).status).toBe(200);
    const analysed = async () =>
      Number(
        (
          await sql<{ n: string }>`select least(coalesce(analyze_count, 0) + coalesce(autoanalyze_count, 0),
              coalesce(vacuum_count, 0) + coalesce(autovacuum_count, 0)) as n
            from pg_stat_user_tables where relname = 'patients'`.execute(t.db)
        ).rows[0]?.n ?? 0,
      );
    const before = await analysed();
    expect(await indexPendingSearch(t.db, t.deps.now() + SEARCH_QUIET_MS)).toBe(1_000);
    // Statistics reach pg_stat_user_tables through the statistics collector: polled briefly.
    for (let i = 0; i < 50 && (await analysed()) <= before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await analysed()).toBeGreaterThan(before);
    // Vacuumed: the indexed rows' old versions are gone from the pending rows' index, so the pending half
    // of a search reads a page or two of it, not one per ~100 rows the job indexed.
    const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>`
      explain (analyze, buffers, format json) select id from patients where business_id = ${businessId} and search_pending`.execute(
      t.db,
    );
    const explained = plan.rows[0]?.['QUERY PLAN'][0];
    if (!explained) throw new Error('no plan');
    const { Plan } = explained;
    expect(Plan['Shared Hit Blocks'] + Plan['Shared Read Blocks']).toBeLessThanOrEqual(2);
    for (const filter of searches(2_999)) expect(await found(filter)).toHaveLength(1);
  });
});
