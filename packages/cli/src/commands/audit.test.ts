import { expect, it } from 'bun:test';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness, testPatient } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker audit', (t) => {
  const { cli, loggedIn } = cliHarness(t);

  it('finds the entries about a patient, as a table, as JSON and as CSV, and pages with --next-token', async () => {
    const as = await loggedIn();
    const businessId = await insertBusiness(t.db);
    const created = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const patientId = created.body.patient.id as string;
    t.advance(1000);
    await t.call('patients', 'get', { id: patientId }, as);

    const table = await cli(['audit', '--patient', patientId]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^When\s+Who\s+What\s+About\s+Patient\s+Where$/);
    expect(lines[1]).toContain('Patient record opened');
    expect(lines[2]).toContain('Patient added');

    const json = await cli(['--json', 'audit', '--patient', patientId, '--action', 'patient.read']);
    const body = JSON.parse(json.stdout);
    expect(body.entries.map((e: { action: string }) => e.action)).toEqual(['patient.read']);
    expect(body.nextToken).toBeNull();

    const csv = await cli(['audit', '--patient', patientId, '--csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toStartWith('"When","Who"');
    expect(csv.stdout).toContain('"Patient record opened"');

    for (let i = 0; i < 55; i++) await t.call('patients', 'get', { id: patientId }, as);
    const first = JSON.parse((await cli(['--json', 'audit', '--action', 'patient.read'])).stdout);
    expect(first.entries).toHaveLength(50);
    const rest = JSON.parse(
      (await cli(['--json', 'audit', '--action', 'patient.read', '--next-token', first.nextToken])).stdout,
    );
    expect(rest.entries).toHaveLength(6);
    const all = JSON.parse((await cli(['--json', 'audit', '--action', 'patient.read', '--all'])).stdout);
    expect(all.entries).toHaveLength(56);
  });

  it('takes days or ISO times for --since and --until, and refuses anything else', async () => {
    await loggedIn();
    const day = await cli(['audit', '--since', '2026-11-01', '--until', '2026-11-30']);
    expect(day.code).toBe(0);
    const bad = await cli(['audit', '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes a day (YYYY-MM-DD) or an ISO date and time');
    const backwards = await cli(['audit', '--since', '2026-11-30', '--until', '2026-11-01']);
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toContain('until');
  });
});
