import { expect, it } from 'bun:test';
import { code128Carries, labelsMax } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, T0, type TestApi } from '../../testing/api.ts';
import { decodeBarcodes, pdfImages, pdfPageSizesMm } from '../../testing/barcodes.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { barcodePng } from './label-pdf.ts';

type As = { cookie: string };
const DAY = 86_400_000;

/** A business with Jane Anne Smith, a machine and two orders, made as support staff would. */
async function estate(t: TestApi, as: As) {
  const businessId = await insertBusiness(t.db);
  const patient = await t.call(
    'patients',
    'create',
    { businessId, patient: testPatient(1, { name: { given: 'Jane Anne', family: 'Smith' } }) },
    as,
  );
  const machine = await t.call(
    'machines',
    'createMachine',
    { businessId, name: 'High St Locker', numberOfSlots: 12 },
    as,
  );
  const base = {
    businessId,
    patientId: patient.body.patient.id as string,
    machineId: machine.body.machine.id as string,
  };
  const first = (await t.call('orders', 'create', { ...base, barcode: 'RX-LABEL-1', collectionWindow: 3 }, as)).body
    .order;
  const second = (await t.call('orders', 'create', { ...base, barcode: 'RX-LABEL-2' }, as)).body.order;
  return { ...base, first, second };
}

describeApi('bag labels', (t) => {
  const support = async (): Promise<As> => ({ cookie: (await t.signIn({ support: true })).cookie });
  const pharmacyOf = async (businessId: string): Promise<As> => ({
    cookie: (await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }] }))
      .cookie,
  });
  const pdf = (ids: string, as?: As, headers: Record<string, string> = {}) =>
    t.raw(`/api/orders/labels.pdf?ids=${ids}`, { headers: { ...(as ? { cookie: as.cookie } : {}), ...headers } });

  it('gives each label the reference, barcode, initials and surname, machine, collect-by and the business’s size', async () => {
    const as = await support();
    const e = await estate(t, as);
    // The second is loaded: its collect-by is its own expiry; the first's is the print day plus its window.
    await t.db
      .updateTable('orders')
      .set({ status: 'loaded', expires_at: T0 + 5 * DAY })
      .where('id', '=', e.second.id)
      .execute();
    const res = await t.call('orders', 'getLabels', { ids: [e.second.id, e.first.id] }, as);
    expect(res.status).toBe(200);
    expect(res.body.labels).toEqual([
      {
        orderId: e.second.id,
        businessId: e.businessId,
        reference: e.second.reference,
        barcode: 'RX-LABEL-2',
        patientInitials: 'JA',
        patientSurname: 'Smith',
        machineName: 'High St Locker',
        collectBy: T0 + 5 * DAY,
        collectByKnown: true,
        size: 'roll62',
      },
      expect.objectContaining({ orderId: e.first.id, collectBy: T0 + 3 * DAY, collectByKnown: false }),
    ]);
    const set = await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      { businessId: e.businessId, settings: { labels: { size: 'sheet4x6' } } },
      as,
    );
    expect(set.status).toBe(200);
    const again = await t.call('orders', 'getLabels', { ids: [e.first.id] }, as);
    expect(again.body.labels[0]?.size).toBe('sheet4x6');
  });

  it('audits a label read as an order read, for each order', async () => {
    const as = await support();
    const e = await estate(t, as);
    await t.call('orders', 'getLabels', { ids: [e.first.id, e.second.id] }, as);
    expect((await pdf(e.first.id, as)).status).toBe(200);
    const reads = (await listAudit(t.db, 'order.read')).filter((a) =>
      ['getLabels', 'labels.pdf'].includes(String((a.details as { via?: string } | null)?.via)),
    );
    expect(reads.map((a) => [a.entityId, (a.details as { via: string }).via]).sort()).toEqual(
      [
        [e.first.id, 'getLabels'],
        [e.second.id, 'getLabels'],
        [e.first.id, 'labels.pdf'],
      ].sort(),
    );
  });

  it('prints a PDF a page per label at the label size, and both its barcodes scan back to the order’s barcode', async () => {
    const as = await support();
    const e = await estate(t, as);
    const res = await pdf(`${e.first.id},${e.second.id}`, as);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(await pdfPageSizesMm(bytes)).toEqual([
      { width: 62, height: 100 },
      { width: 62, height: 100 },
    ]);
    const decoded = (await Promise.all((await pdfImages(bytes)).map(decodeBarcodes))).flat();
    expect(decoded.map((d) => `${d.format} ${d.text}`).sort()).toEqual([
      'Code128 RX-LABEL-1',
      'Code128 RX-LABEL-2',
      'QRCode RX-LABEL-1',
      'QRCode RX-LABEL-2',
    ]);
    await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      {
        businessId: e.businessId,
        settings: { labels: { size: 'sheet4x6' } },
      },
      as,
    );
    const big = new Uint8Array(await (await pdf(e.first.id, as)).arrayBuffer());
    expect(await pdfPageSizesMm(big)).toEqual([{ width: 101.6, height: 152.4 }]);
  });

  it('renders barcodes that scan, whatever characters a barcode holds', async () => {
    for (const value of ['RX-0001', 'abc 123/x~', '9780201379624', 'ÄÖ-ü 12']) {
      if (code128Carries(value))
        expect(await decodeBarcodes(await barcodePng('code128', value))).toEqual([{ format: 'Code128', text: value }]);
      expect(await decodeBarcodes(await barcodePng('qrcode', value))).toEqual([{ format: 'QRCode', text: value }]);
    }
    expect(code128Carries('ÄÖ-ü 12')).toBe(false);
  });

  it('lets whoever may read the order print its label, and nobody else', async () => {
    const as = await support();
    const mine = await estate(t, as);
    const theirs = await estate(t, as);
    const pharmacy = await pharmacyOf(mine.businessId);
    expect((await t.call('orders', 'getLabels', { ids: [mine.first.id] }, pharmacy)).status).toBe(200);
    expect((await pdf(mine.first.id, pharmacy)).status).toBe(200);
    expect((await t.call('orders', 'getLabels', { ids: [mine.first.id, theirs.first.id] }, pharmacy)).status).toBe(404);
    expect((await pdf(`${mine.first.id},${theirs.first.id}`, pharmacy)).status).toBe(404);
    expect((await t.call('orders', 'getLabels', { ids: [mine.first.id] })).status).toBe(401);
    expect((await pdf(mine.first.id)).status).toBe(401);
    const noRoles = { cookie: (await t.signIn({})).cookie };
    expect((await t.call('orders', 'getLabels', { ids: [mine.first.id] }, noRoles)).status).toBe(404);
    expect((await t.call('orders', 'getLabels', { ids: ['no-such-order'] }, as)).status).toBe(404);
  });

  it('refuses no orders or too many with a 400 naming ids', async () => {
    const as = await support();
    const e = await estate(t, as);
    for (const ids of [[], Array.from({ length: labelsMax + 1 }, () => e.first.id)]) {
      const res = await t.call('orders', 'getLabels', { ids }, as);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe('ids');
    }
    const empty = await pdf('', as);
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.details[0].path).toBe('ids');
  });
});
