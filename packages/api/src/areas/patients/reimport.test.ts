import { expect, it } from 'bun:test';
import type { ImportedPatient } from '@medlocker/core';
import { sql } from 'kysely';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { indexPendingSearch, SEARCH_QUIET_MS } from './search-index-repository.ts';

// Importing the same rows again (migration 0056): a row an import sent exactly so before, on a patient no
// one changed since, is unchanged from its digest alone; anything else goes through the checks and the
// upsert as before.
describeApi('patients imported again', (t) => {
  const setUp = async (count = 20) => {
    const as = { cookie: (await t.signIn({ support: true })).cookie };
    const businessId = await insertBusiness(t.db);
    const patients = Array.from({ length: count }, (_, i) => testPatient(i + 1));
    const send = async (batch: ImportedPatient[] = patients) => {
      const res = await t.call('patients', 'batchUpsertPatients', { businessId, patients: batch }, as);
      expect(res.status).toBe(200);
      return res.body;
    };
    const first = await send();
    expect(first.created).toBe(count);
    const ids = first.results.map((r) => ('id' in r ? r.id : undefined)) as string[];
    const digests = async () =>
      (
        await t.db
          .selectFrom('patients')
          .select(['id', 'import_digest'])
          .where('business_id', '=', businessId)
          .orderBy('id')
          .execute()
      ).map((r) => r.import_digest);
    return { as, businessId, patients, send, ids, digests };
  };

  // Behind the trigger's back (never in the product): a stored email no import wrote, so a test can tell
  // a row answered from its digest (left as it is) from one compared again (written back).
  const changeBehindTrigger = async (id: string) => {
    await sql`alter table patients disable trigger patients_import_digest_cleared`.execute(t.db);
    try {
      await t.db.updateTable('patients').set({ email: 'elsewhere@example.com' }).where('id', '=', id).execute();
    } finally {
      await sql`alter table patients enable trigger patients_import_digest_cleared`.execute(t.db);
    }
  };

  it('answers every row unchanged, with its patient, after the search job has indexed them', async () => {
    const { send, ids, digests } = await setUp();
    expect((await digests()).every((d) => d !== null)).toBe(true);
    // The job rewrites each row (search_pending): not a change of what the import wrote.
    expect(await indexPendingSearch(t.db, t.deps.now() + SEARCH_QUIET_MS)).toBe(20);
    expect((await digests()).every((d) => d !== null)).toBe(true);
    const again = await send();
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 20, invalid: 0 });
    expect(again.results.map((r) => ('id' in r ? r.id : undefined))).toEqual(ids);
  });

  it('takes a row sent exactly so before from its digest alone, without comparing it again', async () => {
    const { send, ids } = await setUp();
    // The re-import does not read the columns: it says unchanged and leaves the email as it is.
    await changeBehindTrigger(ids[3] as string);
    expect(await send()).toMatchObject({ unchanged: 20, updated: 0 });
    const stored = await t.db
      .selectFrom('patients')
      .select('email')
      .where('id', '=', ids[3] as string)
      .executeTakeFirstOrThrow();
    expect(stored.email).toBe('elsewhere@example.com');
  });

  it('writes the file back over a patient that staff edited since, and over one deleted', async () => {
    const { as, send, ids, patients } = await setUp();
    const edited = await t.call(
      'patients',
      'update',
      { id: ids[2] as string, patient: { ...patients[2], email: 'edited@example.com' } as ImportedPatient },
      as,
    );
    expect(edited.status).toBe(200);
    expect((await t.call('patients', 'delete', { id: ids[5] as string }, as)).status).toBe(200);
    const again = await send();
    expect(again).toMatchObject({ created: 1, updated: 1, unchanged: 18, invalid: 0 });
    expect(again.results[2]).toEqual({ index: 2, status: 'updated', id: ids[2] });
    const back = await t.call('patients', 'get', { id: ids[2] as string }, as);
    expect(back.body.patient.email).toBe(patients[2]?.email ?? null);
    // Written again from the file, so the next import finds it unchanged.
    expect(await send()).toMatchObject({ created: 0, updated: 0, unchanged: 20 });
  });

  it('goes through the checks again once the business reads display ids as NHS numbers', async () => {
    const { as, businessId, send } = await setUp(3);
    const local = [1, 2, 3].map((i) => testPatient(100 + i, { displayId: `LOCAL-${i}` }));
    expect(await send(local)).toMatchObject({ created: 3 });
    const displayIdField = { name: 'NHS number', required: true, validateNhsNumber: true };
    const saved = await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      { businessId, settings: { displayIdField } },
      as,
    );
    expect(saved.status).toBe(200);
    expect(await send(local)).toMatchObject({ invalid: 3, unchanged: 0 });
  });

  it('keeps the digest of rows found the same that no digest vouched for, and refuses a row sent twice', async () => {
    const { send, digests, patients } = await setUp();
    // As rows written before digests were kept: the first re-import compares them and keeps their digests.
    await sql`update patients set import_digest = null`.execute(t.db);
    expect(await send()).toMatchObject({ unchanged: 20, updated: 0 });
    expect((await digests()).every((d) => d !== null)).toBe(true);
    const twice = await send([patients[0] as ImportedPatient, patients[0] as ImportedPatient]);
    expect(twice.results.map((r) => r.status)).toEqual(['unchanged', 'invalid']);
  });

  it('looks up every row of a batch whose first rows were found, and none past them of one whose first rows are new', async () => {
    const { send, ids, patients } = await setUp();
    await changeBehindTrigger(ids[15] as string);
    expect((await send()).results[15]?.status).toBe('unchanged');
    const mixed = [...Array.from({ length: 8 }, (_, i) => testPatient(500 + i)), ...patients];
    const answer = await send(mixed);
    expect(answer).toMatchObject({ created: 8, updated: 1, unchanged: 19 });
    expect(answer.results[8 + 15]?.status).toBe('updated');
  });

  it('answers a batch whose first rows are new and the rest known as the rows are', async () => {
    const { send, patients } = await setUp();
    const mixed = [...Array.from({ length: 8 }, (_, i) => testPatient(500 + i)), ...patients];
    expect(await send(mixed)).toMatchObject({ created: 8, unchanged: 20, updated: 0, invalid: 0 });
    const changed = patients.map((p, i) => (i === 19 ? { ...p, email: 'last@example.com' } : p));
    expect(await send(changed)).toMatchObject({ created: 0, unchanged: 19, updated: 1 });
  });
});
