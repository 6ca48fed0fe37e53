import { expect, it } from 'bun:test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi, T0 } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness, testPatient } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker orders', (t) => {
  const { cli, loggedIn, dir } = cliHarness(t);

  /** A business (charges on) with two patients and a machine, made through the API as support staff. */
  async function estate() {
    const as = await loggedIn();
    const businessId = await insertBusiness(t.db);
    await t.db
      .insertInto('business_feature_settings')
      .values({
        business_id: businessId,
        settings: JSON.stringify({ charges: { enabled: true }, retailCharges: { enabled: true } }),
        updated: 1,
      })
      .execute();
    const patient = async (i: number) => {
      const res = await t.call('patients', 'create', { businessId, patient: testPatient(i) }, as);
      expect(res.status).toBe(200);
      return { id: res.body.patient.id as string, displayId: res.body.patient.displayId as string };
    };
    const machine = await t.call('machines', 'createMachine', { businessId, name: 'Locker 1', numberOfSlots: 12 }, as);
    expect(machine.status).toBe(200);
    const name = (await t.db.selectFrom('businesses').select('name').where('id', '=', businessId).executeTakeFirst())
      ?.name as string;
    return {
      businessId,
      name,
      p1: await patient(1),
      p2: await patient(2),
      machineId: machine.body.machine.id as string,
    };
  }

  const create = async (e: { businessId: string }, patientId: string, barcode: string, more: string[] = []) => {
    const res = await cli([
      'orders',
      'create',
      '--business',
      e.businessId,
      '--patient',
      patientId,
      '--barcode',
      barcode,
      '--json',
      ...more,
    ]);
    expect(res.code).toBe(0);
    return res.json().order as { id: string; reference: string };
  };

  const countOrders = async () => (await t.db.selectFrom('orders').select('id').execute()).length;

  it('creates an order by business name, with machine, window and charges, and prints it', async () => {
    const e = await estate();
    const res = await cli([
      'orders',
      'create',
      '--business',
      e.name,
      '--patient',
      e.p1.id,
      '--barcode',
      'RX-0001',
      '--machine',
      e.machineId,
      '--window',
      '5',
      '--prescription-charge',
      '9.90',
      '--retail-charge',
      '1.00',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Order 000001 created');
    expect(res.stdout).toMatch(/Prescription charge: +£9\.90/);
    expect(res.stdout).toMatch(/Retail charge: +£1\.00/);
    expect(res.stdout).toMatch(/Collection window: +5 days/);
    expect(res.stdout).toContain('Locker 1');
    const json = await create(e, e.p2.id, 'RX-0002');
    expect(json).toMatchObject({ reference: '000002', barcode: 'RX-0002', status: 'new', pin: null });
  });

  it("takes the business's Patient ID for --patient, as typed with spaces, and refuses one nobody has", async () => {
    const e = await estate();
    const spaced = `${e.p2.displayId.slice(0, 3)} ${e.p2.displayId.slice(3)}`;
    const order = await create(e, spaced, 'RX-ID');
    const row = await t.db.selectFrom('orders').select('patient_id').where('id', '=', order.id).executeTakeFirst();
    expect(row?.patient_id).toBe(e.p2.id);
    const unknown = await cli([
      'orders',
      'create',
      '--business',
      e.businessId,
      '--patient',
      'NOBODY-1',
      '--barcode',
      'X',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).not.toContain('Internal');
    expect(await countOrders()).toBe(1);
  });

  it('refuses bad input in SPEC words, changing nothing', async () => {
    const e = await estate();
    const bad = await cli([
      'orders',
      'create',
      '--business',
      e.businessId,
      '--patient',
      e.p1.id,
      '--barcode',
      'RX-1',
      '--window',
      '0',
      '--prescription-charge',
      '£9',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('collectionWindow: ');
    expect(bad.stderr).toContain('prescriptionCharge: Please enter a valid amount, e.g. “9.99”');
    const json = await cli([
      'orders',
      'create',
      '--business',
      e.businessId,
      '--patient',
      e.p1.id,
      '--barcode',
      'RX-1',
      '--window',
      '91',
      '--json',
    ]);
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ ok: false, error: { status: 400, details: [{ path: 'collectionWindow' }] } });
    expect(await countOrders()).toBe(0);
    // A second live order with the same barcode: the API's 409, passed on.
    await create(e, e.p1.id, 'RX-1');
    const dup = await cli(['orders', 'create', '--business', e.businessId, '--patient', e.p2.id, '--barcode', 'RX-1']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('barcode: Another current order already has this barcode');
    expect(await countOrders()).toBe(1);
    const usage = await cli(['orders', 'create', '--business', e.businessId, '--barcode', 'RX-9']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("required option '--patient <patient-id>' not specified");
  });

  it('lists orders newest first, by status, current, search, expired and every page', async () => {
    const e = await estate();
    const a = await create(e, e.p1.id, 'RX-A');
    const b = await create(e, e.p2.id, 'RX-B');
    const c = await create(e, e.p1.id, 'RX-C');
    await t.db
      .updateTable('orders')
      .set({ status: 'loaded', expires_at: T0 - 60_000 })
      .where('id', '=', b.id)
      .execute();
    expect((await cli(['orders', 'cancel', a.id, '--reason', 'Wrong bag'])).code).toBe(0);

    const table = await cli(['orders', 'list', '--business', e.businessId]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Reference +Barcode +Patient +Machine +Status +Created$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/).slice(0, 2))).toEqual([
      [c.reference, 'RX-C'],
      [b.reference, 'RX-B'],
      [a.reference, 'RX-A'],
    ]);
    expect(lines[2]).toContain('expired');
    expect(lines[3]).toContain('cancelled');
    expect(lines[1]).toContain('Given1 Family1');

    const ids = async (...args: string[]) => {
      const res = await cli(['orders', 'list', '--business', e.businessId, '--json', ...args]);
      expect(res.code).toBe(0);
      return (res.json().orders as { id: string }[]).map((o) => o.id);
    };
    expect(await ids('--status', 'expired')).toEqual([b.id]);
    expect(await ids('--status', 'cancelled')).toEqual([a.id]);
    expect(await ids('--current')).toEqual([c.id, b.id]);
    expect(await ids('--search', 'rx-b')).toEqual([b.id]);
    expect(await ids('--search', 'Given2')).toEqual([b.id]);

    const bad = await cli(['orders', 'list', '--business', e.businessId, '--status', 'lost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are new, loaded, collected, removed, cancelled, expired');
    const none = await cli(['orders', 'list', '--business', e.businessId, '--search', 'nothing-like-it']);
    expect(none.stdout).toBe('No orders found\n');

    // 27 more: one page is 25 with a next token; --all reads them all.
    for (let i = 0; i < 27; i++) await create(e, e.p2.id, `BULK-${i}`);
    const first = await cli(['orders', 'list', '--business', e.businessId, '--json']);
    expect(first.json().orders).toHaveLength(25);
    expect(first.json().nextToken).toEqual(expect.any(String));
    const human = await cli(['orders', 'list', '--business', e.businessId]);
    expect(human.stdout).toContain('More orders: add --all, or --next-token ');
    const all = await cli(['orders', 'list', '--business', e.businessId, '--all', '--json']);
    expect(all.json().orders).toHaveLength(30);
    expect(all.json().nextToken).toBeNull();
  });

  it('gets an order with its timeline, and cancels it with a reason', async () => {
    const e = await estate();
    const order = await create(e, e.p1.id, 'RX-T', ['--machine', e.machineId]);
    const noReason = await cli(['orders', 'cancel', order.id, '--reason', '  ']);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toContain('reason: Please enter a value');
    const cancelled = await cli(['orders', 'cancel', order.id, '--reason', 'Patient moved away']);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toBe(`Order ${order.reference} cancelled\n`);
    const again = await cli(['orders', 'cancel', order.id, '--reason', 'Twice', '--json']);
    expect(again.code).toBe(1);
    expect(again.json()).toMatchObject({ ok: false, error: { status: 409 } });

    const got = await cli(['orders', 'get', order.id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(/Reference: +000001/);
    expect(got.stdout).toMatch(/Status: +cancelled/);
    expect(got.stdout).toContain('Timeline:');
    const json = (await cli(['orders', 'get', order.id, '--json'])).json();
    expect(json.order).toMatchObject({ id: order.id, barcode: 'RX-T', status: 'cancelled', pin: null });
    expect(json.events.length).toBeGreaterThanOrEqual(2);
    expect(json.events.map((ev: { created: number }) => ev.created)).toEqual(
      [...json.events.map((ev: { created: number }) => ev.created)].sort((x: number, y: number) => x - y),
    );
    for (const ev of json.events) expect(got.stdout).toContain(ev.code);

    const missing = await cli(['orders', 'get', '01900000-0000-7000-8000-00000000dead', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.json()).toMatchObject({ ok: false, error: { status: 404 } });
  });

  it('imports good rows, reports bad and duplicate rows by number with nothing sent for them, and exits 1', async () => {
    const e = await estate();
    await create(e, e.p1.id, 'LIVE-1');
    const path = join(dir(), 'orders.csv');
    await writeFile(
      path,
      [
        'Barcode,patientId,machineId,collectionWindow,prescriptionCharge,retailCharge',
        `IMP-1,${e.p1.id},${e.machineId},3,9.90,1.00`,
        `,${e.p1.id},,,,`,
        `IMP-2,${e.p2.id},,,,`,
        `IMP-3,${e.p2.id},,0,£5,`,
        '',
        `LIVE-1,${e.p2.id},,,,`,
        `IMP-4,01900000-0000-7000-8000-00000000dead,,,,`,
        '',
      ].join('\r\n'),
    );
    const res = await cli(['orders', 'import', path, '--business', e.businessId]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Import complete: 2 of 6 orders created');
    expect(res.stderr).toContain('4 rows failed:');
    expect(res.stderr).toContain('Row 3: barcode: Please enter a value');
    expect(res.stderr).toMatch(/Row 5: collectionWindow: .+; prescriptionCharge: Please enter a valid amount/);
    expect(res.stderr).toContain('Row 7: barcode: Another current order already has this barcode');
    expect(res.stderr).toMatch(/Row 8: \S/);
    expect(res.stderr).toContain('Creating: 4/4 rows (100%)');
    const rows = await t.db.selectFrom('orders').select(['barcode', 'collection_window']).orderBy('barcode').execute();
    expect(rows.map((r) => r.barcode)).toEqual(['IMP-1', 'IMP-2', 'LIVE-1']);
    expect(rows[0]?.collection_window).toBe(3);

    // The same file again with --json: every row now fails (IMP-1, IMP-2 are live), reported per row.
    const again = await cli(['orders', 'import', path, '--business', e.businessId, '--json']);
    expect(again.code).toBe(1);
    const body = again.json();
    expect(body).toMatchObject({ ok: false, error: { rows: 6, created: 0, failedRows: 6 } });
    expect(body.error.errors.map((r: { row: number }) => r.row)).toEqual([2, 3, 4, 5, 7, 8]);
    expect(await countOrders()).toBe(3);
  });

  it('imports by patientDisplayId, and refuses a file with unknown or missing columns', async () => {
    const e = await estate();
    const path = join(dir(), 'by-display-id.csv');
    await writeFile(
      path,
      ['barcode,patientDisplayId', `D-1,${e.p1.displayId}`, `D-2,${e.p2.displayId}`, 'D-3,9990000000', ''].join('\n'),
    );
    const partly = await cli(['orders', 'import', path, '--business', e.businessId, '--json']);
    expect(partly.code).toBe(1);
    expect(partly.json().error.errors).toEqual([
      { row: 4, errors: ["patientDisplayId: No current patient has the ID '9990000000'"] },
    ]);
    await writeFile(path, ['barcode,patientDisplayId', `D-4,${e.p1.displayId}`].join('\n'));
    const ok = await cli(['orders', 'import', path, '--business', e.businessId, '--json']);
    expect(ok.code).toBe(0);
    expect(ok.json()).toMatchObject({ ok: true, rows: 1, created: 1, failedRows: 0, orders: [{ row: 2 }] });
    const patients = await t.db.selectFrom('orders').select(['barcode', 'patient_id']).orderBy('barcode').execute();
    expect(patients).toEqual([
      { barcode: 'D-1', patient_id: e.p1.id },
      { barcode: 'D-2', patient_id: e.p2.id },
      { barcode: 'D-4', patient_id: e.p1.id },
    ]);

    await writeFile(path, 'barcode,patient,colour\nX,1,red\n');
    const unknown = await cli(['orders', 'import', path, '--business', e.businessId]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown column 'patient'");
    await writeFile(path, 'barcode,patientId,patientDisplayId\nX,1,2\n');
    expect((await cli(['orders', 'import', path, '--business', e.businessId])).stderr).toContain(
      "one of the columns 'patientId' or 'patientDisplayId'",
    );
    await writeFile(path, 'barcode,patientId\n');
    const empty = await cli(['orders', 'import', path, '--business', e.businessId]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('The selected file contains no data.');
    expect(await countOrders()).toBe(3);
  });
});
