import { expect, it } from 'bun:test';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness, nhsSettings, testNhsNumber } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker patients', (t) => {
  const { cli, loggedIn, dir: tmp } = cliHarness(t);

  const header = 'NHS Number,Given Name,Family Name,Mobile,Email,Date of Birth';
  const good = (i: number) =>
    `${testNhsNumber(i * 3)},Given${i},Family${i},07700 900${String(i % 1000).padStart(3, '0')},p${i}@example.com,02-03-1970`;
  const byName =
    'NHS Number=NhsNumber,Given Name=GivenName,Family Name=FamilyName,Mobile=Mobile,Email=Email,Date of Birth=DateOfBirth';

  async function file(name: string, lines: string[]) {
    const path = join(tmp(), name);
    await writeFile(path, `\uFEFF${lines.join('\r\n')}\r\n`);
    return path;
  }
  const patientCount = async () => (await t.db.selectFrom('patients').select('id').execute()).length;

  it('imports good rows, reports bad ones in a CSV beside the file, and exits 1', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const path = await file('mixed.csv', [
      header,
      good(1),
      '1234567890,Bad,Number,07700900001,,',
      good(2),
      ',,,,,',
      `${testNhsNumber(9)},No,Mobile,,,`,
      good(3),
      `${testNhsNumber(3)},Same,Id,07700900003,,`,
    ]);
    const res = await cli(['patients', 'import', '--business', businessId, '--map', byName, path]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Import complete: 3 patients processed (created 3, updated 0, unchanged 0)');
    expect(res.stderr).toContain(`3 rows failed; errors written to ${join(tmp(), 'mixed.errors.csv')}`);
    expect(res.stderr).toContain('Importing: 6/6 rows (100%)');
    expect(await patientCount()).toBe(3);
    const report = await readFile(join(tmp(), 'mixed.errors.csv'), 'utf8');
    expect(report).toBe(
      [
        '"Row","Error"',
        '3,"invalid NHS number: 1234567890"',
        '6,"missing mobile number"',
        `8,"duplicate ID field: ${testNhsNumber(3)}"`,
        '',
      ].join('\r\n'),
    );
    expect((await stat(join(tmp(), 'mixed.errors.csv'))).mode & 0o777).toBe(0o600);

    // With --json a script gets the counts and each failed row as data, not only the prose.
    const again = await cli(['patients', 'import', '--business', businessId, '--map', byName, path, '--json']);
    expect(again.code).toBe(1);
    expect(again.json()).toMatchObject({
      ok: false,
      error: {
        created: 0,
        updated: 0,
        unchanged: 3,
        failedRows: 3,
        errors: [
          { row: 3, errors: ['invalid NHS number: 1234567890'] },
          { row: 6, errors: ['missing mobile number'] },
          { row: 8, errors: [`duplicate ID field: ${testNhsNumber(3)}`] },
        ],
      },
    });
  });

  it('imports a file of several 1024-row batches, naming each bad row by its spreadsheet row', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const lines = [header, ...Array.from({ length: 2500 }, (_, i) => good(i + 1))];
    lines[1500] = 'bad,Bad,Row,07700900001,,';
    lines[2400] = `${testNhsNumber(2400 * 3)},Late,Bad,0770,,`;
    const path = await file('big.csv', lines);
    const res = await cli(['patients', 'import', '--business', businessId, '--map', byName, '--json', path]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('created 2498');
    expect(await readFile(join(tmp(), 'big.errors.csv'), 'utf8')).toBe(
      '"Row","Error"\r\n1501,"invalid NHS number: bad"\r\n2401,"invalid mobile number: 0770"\r\n',
    );
    expect(await patientCount()).toBe(2498);
  }, 60_000);

  it("refuses an ID repeated batches later in core's words, on a dry run too, keeping the first row", async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const lines = [header, ...Array.from({ length: 1500 }, (_, i) => good(i + 1))];
    // Row 1402 repeats row 3's NHS number, written with spaces: the second 1024-row batch.
    const repeated = testNhsNumber(2 * 3).replace(/^(\d{3})(\d{3})/, '$1 $2 ');
    lines[1401] = `${repeated},Late,Repeat,07700900999,late@example.com,`;
    const path = await file('repeat.csv', lines);
    const report = `"Row","Error"\r\n1402,"duplicate ID field: ${testNhsNumber(6)}"\r\n`;
    const dry = await cli(['patients', 'import', '--business', businessId, '--map', byName, '--dry-run', path]);
    expect(dry.stderr).toContain('Dry run: 1500 rows checked, 1499 patients would be sent; nothing was sent');
    expect(await readFile(join(tmp(), 'repeat.errors.csv'), 'utf8')).toBe(report);
    const res = await cli(['patients', 'import', '--business', businessId, '--map', byName, path]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Import complete: 1499 patients processed (created 1499, updated 0, unchanged 0)');
    expect(await readFile(join(tmp(), 'repeat.errors.csv'), 'utf8')).toBe(report);
    const first = await t.db
      .selectFrom('patients')
      .select(['given_name', 'email'])
      .where('display_id', '=', testNhsNumber(6))
      .executeTakeFirstOrThrow();
    expect(first).toEqual({ given_name: 'Given2', email: 'p2@example.com' });
  }, 60_000);

  it('splits a batch of very long rows to stay under the request size limit', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db);
    const long = 'x'.repeat(190);
    const lines = Array.from(
      { length: 1100 },
      (_, i) => `P${i},Name ${i} ${long},07700900${String(i % 1000).padStart(3, '0')},${long},${long},${long},${long}`,
    );
    const path = await file('long.csv', lines);
    const res = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--first-line',
      'data',
      '--map',
      '0=ID,1=FullName,2=Mobile,3=AddressLine1,4=AddressLine2,5=AddressLine3,6=PostTown',
      path,
    ]);
    expect(res.stderr).not.toContain('too large');
    expect(res.code).toBe(0);
    expect(await patientCount()).toBe(1100);
  }, 60_000);

  it('changes nothing when the same file is imported twice', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const path = await file('twice.csv', [good(1), good(2), good(3)]);
    const args = [
      'patients',
      'import',
      '--business',
      businessId,
      '--first-line',
      'data',
      '--map',
      '0=NhsNumber,1=GivenName,2=FamilyName,3=Mobile',
    ];
    const first = await cli([...args, path]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('created 3');
    const again = await cli([...args, '--json', path]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      ok: true,
      rows: 3,
      created: 0,
      updated: 0,
      unchanged: 3,
      failedRows: 0,
      errorsFile: null,
    });
  });

  it('checks without sending anything on --dry-run, and saves and reuses a mapping file', async () => {
    const businessId = await insertBusiness(t.db);
    const path = await file('dry.csv', [header, good(1), 'x,,,,,']);
    const saved = join(tmp(), 'mapping.json');
    const dry = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--dry-run',
      '--map',
      byName,
      '--save-mapping',
      saved,
      '--errors',
      join(tmp(), 'dry-report.csv'),
      path,
    ]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain('Dry run: 2 rows checked, 1 patient would be sent; nothing was sent');
    expect(await readFile(join(tmp(), 'dry-report.csv'), 'utf8')).toBe(
      '"Row","Error"\r\n3,"missing name; invalid NHS number: x; missing mobile number"\r\n',
    );
    expect(await patientCount()).toBe(0);
    expect(JSON.parse(await readFile(saved, 'utf8'))).toMatchObject({
      firstLine: 'fields',
      columns: { 'NHS Number': 'NhsNumber', Mobile: 'Mobile' },
    });

    await loggedIn();
    const clean = await file('clean.csv', [header, good(4)]);
    const real = await cli(['patients', 'import', '--business', businessId, '--mapping', saved, clean]);
    expect(real.code).toBe(0);
    expect(await patientCount()).toBe(1);
  });

  it('refuses a mapping that breaks the rules, a broken file and an unknown column (exit 2 or 1)', async () => {
    const businessId = await insertBusiness(t.db);
    const path = await file('refused.csv', [header, good(1)]);
    const noMobile = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--dry-run',
      '--map',
      '0=NhsNumber,1=FullName,2=FullName',
      path,
    ]);
    expect(noMobile.code).toBe(2);
    expect(noMobile.stderr).toContain('Full Name is mapped to more than one column');
    expect(noMobile.stderr).toContain('Map a UK Mobile column');
    const unknown = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--dry-run',
      '--map',
      'Phone=Mobile',
      path,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No column named 'Phone'");
    const unnamed = await file('unnamed.csv', ['Col A,Col B,Col C,Col D,Col E,Col F', good(1)]);
    const none = await cli(['patients', 'import', '--business', businessId, unnamed]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('The columns could not be mapped by their names (0=Col A → (ignored)');
    const ragged = await file('ragged.csv', [header, 'a,b']);
    const broken = await cli(['patients', 'import', '--business', businessId, '--dry-run', '--map', byName, ragged]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('Errors encountered during parsing.');
    expect(broken.stderr).toContain('Row 2: Too few fields');
    const empty = await file('empty.csv', ['']);
    expect(
      (await cli(['patients', 'import', '--business', businessId, '--dry-run', '--map', byName, empty])).stderr,
    ).toContain('The selected file contains no data.');
  });

  it('refuses a file holding only its field names as it refuses an empty one, before asking for a mapping', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db);
    const headerOnly = await file('header-only.csv', [header, ',,,,,']);
    for (const mapping of [['--map', byName], []]) {
      const res = await cli(['patients', 'import', '--business', businessId, ...mapping, headerOnly]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('The selected file contains no data.');
      expect(res.stderr).not.toContain('Import complete');
    }
    // Read as patient data, its one line is a patient (here a bad one).
    const asData = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--first-line',
      'data',
      '--map',
      '0=NhsNumber,1=GivenName,2=FamilyName,3=Mobile',
      headerOnly,
    ]);
    expect(asData.stderr).toContain('Import complete: 0 patients processed');
    expect(asData.stderr).toContain('1 row failed;');
    expect(await patientCount()).toBe(0);
  });

  it('stops at the server refusing an archived business', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db, { archived: true });
    const path = await file('archived.csv', [header, good(1)]);
    const res = await cli(['patients', 'import', '--business', businessId, '--map', byName, path]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('An archived business cannot have its patients changed');
  });

  it('exports current patients as a CSV the import reads back, with formula-like cells neutralised', async () => {
    await loggedIn();
    const businessId = await insertBusiness(t.db);
    const path = await file('export-source.csv', [
      'ID,Full Name,Mobile,Address',
      'P1,=HYPERLINK("http://evil"),07700900001,"-1 High Street, Leeds"',
      'P2,Grace Hopper,07700900002,',
      'P3,Gone Patient,07700900003,',
    ]);
    expect(
      (
        await cli([
          'patients',
          'import',
          '--business',
          businessId,
          '--map',
          'ID=ID,Full Name=FullName,Mobile=Mobile,Address=AddressLine1',
          path,
        ])
      ).code,
    ).toBe(0);
    const gone = await t.db
      .selectFrom('patients')
      .select('id')
      .where('display_id', '=', 'P3')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('patients')
      .set({ deleted_at: 1, deleted_by_id: 'u1', deleted_by_display: 'Sam Support' })
      .where('id', '=', gone.id)
      .execute();

    const out = join(tmp(), 'export.csv');
    const res = await cli(['patients', 'export', '--business', businessId, '--out', out]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Exported 2 patients to ${out}\n`);
    const csv = await readFile(out, 'utf8');
    expect(csv.split('\r\n')).toEqual([
      '"ID","Full Name","Date of Birth","Mobile","Email","Address 1","Address 2","Address 3","Town","Postcode"',
      `"P1","'=HYPERLINK(""http://evil"")",,07700900001,,"'-1 High Street, Leeds",,,,`,
      '"P2","Grace Hopper",,07700900002,,,,,,',
      '',
    ]);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const stdout = await cli(['patients', 'export', '--business', businessId, '--include-deleted']);
    expect(stdout.stdout).toContain('"P3","Gone Patient",,07700900003,,,,,,,"yes"');

    const reimport = await cli([
      'patients',
      'import',
      '--business',
      businessId,
      '--map',
      'ID=ID,Full Name=FullName,Mobile=Mobile',
      out,
    ]);
    expect(reimport.code).toBe(0);
    expect(reimport.stdout).toContain('updated 1, unchanged 1');
  });
});
