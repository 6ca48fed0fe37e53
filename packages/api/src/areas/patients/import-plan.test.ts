import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness } from '../../testing/patients.ts';
import { fastUpsertStatement, importedUnchangedStatement, type UpsertRow } from './import-repository.ts';

/** Row `ord` of an import batch: a display id, a full name and a mobile, nothing else. */
const sentRow = (
  ord: number,
  sent: { displayId: string; fullName: string; mobileNumber: string; digest?: string },
): UpsertRow => ({
  ord,
  id: `new-${ord}`,
  digest: `d${ord}`,
  givenName: '',
  familyName: '',
  dateOfBirth: null,
  email: null,
  addressLine1: null,
  addressLine2: null,
  addressLine3: null,
  postTown: null,
  postcode: null,
  ...sent,
});

const batchStatement = (businessId: string, rows: UpsertRow[]) =>
  fastUpsertStatement({
    businessId,
    rows,
    now: 1,
    auditId: 'audit-1',
    actor: { userId: null, display: 'test', ip: null, requestId: null },
  });

// An import's lookup of each row's current patient probes the unique (business, display id) index, even
// when the table statistics were taken before the business had any patients (a pharmacy that joined
// since): planned on the business's index alone, every batch read all of the business's patients again
// for each row it sent, and a 100,000-row import slowed batch after batch.
describeApi('patients import plan', (t) => {
  it('looks each row up on the unique (business, display id) index in a business the statistics think empty', async () => {
    const [full, joined] = [await insertBusiness(t.db), await insertBusiness(t.db)];
    await sql`insert into patients (id, business_id, display_id, full_name, created, updated)
      select 'p' || g, ${full}, (9000000000 + g)::text, 'Patient ' || g, 0, 0 from generate_series(1, 3000) g`.execute(
      t.db,
    );
    await sql`analyze patients`.execute(t.db);
    const rows = Array.from({ length: 3 }, (_, i) =>
      sentRow(i, { displayId: String(9100000000 + i), fullName: `New ${i}`, mobileNumber: `+4477009000${i}0` }),
    );
    const statement = batchStatement(joined, rows);
    const plan = (await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(t.db)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    const lookup = plan.slice(plan.indexOf('CTE current'), plan.indexOf('CTE added'));
    expect(lookup).toContain('patients_business_display_id_key');
    expect(lookup).not.toContain('patients_business_created_idx');
    // The same for the lookup of rows unchanged since the last import, even with no statistics at all.
    const unchanged = importedUnchangedStatement(
      full,
      rows.map((r) => ({ displayId: r.displayId, digest: r.digest })),
    );
    const probe = (await sql<{ 'QUERY PLAN': string }>`explain ${unchanged}`.execute(t.db)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(probe).toContain('Index Scan using patients_business_display_id_key');
    expect(probe).not.toContain('Hash');
  });
});

// Its own database, never analysed: a pharmacy's first imports into PGlite (no autovacuum) before the
// search job's analyse. Without statistics, the statement's two updates joined the batch to every current
// patient of the table and hashed them, for each batch.
describeApi('patients import plan without statistics', (t) => {
  it('updates the rows a batch changed, and marks the ones found the same, by their ids, however many patients the business has', async () => {
    const business = await insertBusiness(t.db);
    await sql`insert into patients (id, business_id, display_id, full_name, mobile_number, created, updated)
      select 'p' || g, ${business}, (9000000000 + g)::text, 'Patient ' || g, '+447700900000', 0, 0
      from generate_series(1, 20000) g`.execute(t.db);
    // A batch of patients 1 to 1,024: the odd ones sent as stored (their digests kept: `marked`), the even
    // ones with another name (`changed`).
    const sent = Array.from({ length: 1024 }, (_, i) =>
      sentRow(i, {
        displayId: String(9000000001 + i),
        fullName: i % 2 === 0 ? `Patient ${i + 1}` : `Renamed ${i + 1}`,
        mobileNumber: '+447700900000',
        digest: `d${i + 1}`,
      }),
    );
    const statement = batchStatement(business, sent);
    const plan = (await sql<{ 'QUERY PLAN': string }>`explain analyze ${statement}`.execute(t.db)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    for (const step of ['CTE changed', 'CTE marked']) {
      const from = plan.indexOf(`  ${step}\n`);
      const part = plan.slice(from, plan.indexOf('\n  CTE ', from + 1));
      const scanned = [...part.matchAll(/on patients p_\d+ .*actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/g)].map((m) =>
        Number(m[1]),
      );
      expect(scanned.length).toBeGreaterThan(0);
      // Half the batch each, found by id: never the business's 20,000 patients read and filtered.
      expect(Math.max(...scanned)).toBeLessThanOrEqual(512);
      expect(part).toMatch(/Index Scan (using|on) (patients_pkey|patients_id_birth_idx)/);
      expect(part).not.toContain('patients_business_display_id_key');
      expect(part).not.toContain('Seq Scan on patients');
    }
    const stored = await sql<{ id: string; full_name: string; import_digest: string | null }>`
      select id, full_name, import_digest from patients where id in ('p1', 'p2', 'p1025') order by id`.execute(t.db);
    expect(stored.rows).toEqual([
      { id: 'p1', full_name: 'Patient 1', import_digest: 'd1' },
      { id: 'p1025', full_name: 'Patient 1025', import_digest: null },
      { id: 'p2', full_name: 'Renamed 2', import_digest: 'd2' },
    ]);
  });
});
