import { expect, it } from 'bun:test';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { DAY, estateBusiness, estateOrder, estatePatient } from '../../../api/src/testing/estate.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker patients erase | export-data, medlocker retention', (t) => {
  const { cli, loggedIn, dir } = cliHarness(t);

  async function patient() {
    const businessId = await estateBusiness(t.db, 'Erasure Pharmacy');
    const patientId = await estatePatient(t.db, businessId, t.deps.now() - 400 * DAY, 'Alan Turing');
    await estateOrder(t.db, businessId, patientId, { created: t.deps.now() - 10 * DAY });
    const display = await t.db
      .selectFrom('patients')
      .select('display_id')
      .where('id', '=', patientId)
      .executeTakeFirstOrThrow();
    return { businessId, patientId, displayId: display.display_id };
  }

  it('writes a patient’s data as a ZIP, by id or by the Patient ID the business knows', async () => {
    await loggedIn();
    const p = await patient();
    const out = join(dir(), 'sar.zip');
    const res = await cli(['patients', 'export-data', p.displayId, '--business', p.businessId, '--out', out]);
    expect([res.code, res.stdout]).toEqual([0, `Wrote the data held about patient ${p.displayId} to ${out}\n`]);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const files = unzipSync(await readFile(out));
    expect(JSON.parse(new TextDecoder().decode(files['data.json'])).patient.fullName).toBe('Alan Turing');
    const json = await cli(['patients', 'export-data', p.patientId, '--out', out, '--json']);
    expect(json.json()).toMatchObject({ file: out });
  });

  it('erases only when confirmed, and says when the law leaves it be', async () => {
    await loggedIn();
    const p = await patient();
    const unconfirmed = await cli(['patients', 'erase', p.patientId]);
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([
      2,
      `Erase patient ${p.patientId}? This cannot be undone. Add --yes to confirm\n`,
    ]);
    await estateOrder(t.db, p.businessId, p.patientId, { status: 'loaded', created: t.deps.now() - DAY });
    const refused = await cli(['patients', 'erase', p.patientId, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This patient has an order waiting to be loaded or in a locker');
    await t.db.updateTable('orders').set({ status: 'collected' }).where('patient_id', '=', p.patientId).execute();
    const erased = await cli(['patients', 'erase', p.patientId, '--yes']);
    expect([erased.code, erased.stdout]).toEqual([0, `Erased patient ${p.patientId} (2 orders anonymised)\n`]);
    const row = await t.db
      .selectFrom('patients')
      .select('full_name')
      .where('id', '=', p.patientId)
      .executeTakeFirstOrThrow();
    expect(row.full_name).toBe('Erased patient');
  });

  it('shows the retention policy and what the next run would remove, the product’s or a business’s', async () => {
    const support = await loggedIn();
    const p = await patient();
    await t.call('dataProtection', 'updateBusinessRetention', { businessId: p.businessId, orderDays: 30 }, support);
    const product = await cli(['retention']);
    expect(product.code).toBe(0);
    expect(product.stdout).toContain('Finished orders and their messages: 730 days');
    const business = await cli(['retention', '--business', p.businessId, '--json']);
    expect(business.json()).toMatchObject({ effective: { orderDays: 30 }, preview: { orders: 0 } });
  });
});
