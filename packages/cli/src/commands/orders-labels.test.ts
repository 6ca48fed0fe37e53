import { expect, it } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the labels are read back as a scanner would, and the API's harness gives the cli a server.
import { decodeBarcodes, pdfImages, pdfPageSizesMm } from '../../../api/src/testing/barcodes.ts';
import { insertBusiness, testPatient } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker orders labels', (t) => {
  const { cli, loggedIn, dir } = cliHarness(t);

  let patients = 0;
  async function order(as: { cookie: string }, businessId: string, barcode: string) {
    patients += 1;
    const patient = await t.call('patients', 'create', { businessId, patient: testPatient(patients) }, as);
    const res = await t.call('orders', 'create', { businessId, patientId: patient.body.patient.id, barcode }, as);
    expect(res.status).toBe(200);
    return res.body.order as { id: string; reference: string };
  }

  it('writes the labels of orders named by reference, barcode or id to one PDF whose barcodes scan', async () => {
    const as = await loggedIn();
    const businessId = await insertBusiness(t.db);
    const a = await order(as, businessId, 'CLI-LABEL-A');
    const b = await order(as, businessId, 'CLI-LABEL-B');
    const file = join(dir(), 'labels.pdf');
    const res = await cli(['orders', 'labels', a.reference, 'cli-label-b', a.id, '--out', file]);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).toBe(`3 labels written to ${file}\n`);
    const pdf = new Uint8Array(await readFile(file));
    expect(await pdfPageSizesMm(pdf)).toHaveLength(3);
    const texts = (await Promise.all((await pdfImages(pdf)).map(decodeBarcodes))).flat().map((d) => d.text);
    expect(texts.sort()).toEqual([
      'CLI-LABEL-A',
      'CLI-LABEL-A',
      'CLI-LABEL-A',
      'CLI-LABEL-A',
      'CLI-LABEL-B',
      'CLI-LABEL-B',
    ]);
    expect(b.id).not.toBe(a.id);
  });

  it('asks for --business when a reference names orders in two businesses, and says which order is unknown', async () => {
    const as = await loggedIn();
    const first = await insertBusiness(t.db);
    const second = await insertBusiness(t.db);
    const a = await order(as, first, 'CLI-SAME-1');
    await order(as, second, 'CLI-SAME-2');
    const file = join(dir(), 'two.pdf');
    const both = await cli(['orders', 'labels', a.reference, '--out', file]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('give --business');
    expect((await cli(['orders', 'labels', a.reference, '--business', first, '--out', file])).code).toBe(0);
    const unknown = await cli(['orders', 'labels', 'no-such-order', '--out', file]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No order with id no-such-order');
  });
});
