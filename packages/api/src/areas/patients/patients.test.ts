import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness, nhsSettings, testNhsNumber, testPatient } from '../../testing/patients.ts';
import { storedNameParts, type UpsertRow, upsertPatients } from './import-repository.ts';
import { namePartsOnUpdate, type PatientValues } from './rules.ts';

describeApi('patients', (t) => {
  const support = async () => ({
    cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie,
  });

  it('creates a patient with its details normalised, and reads it back', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const created = await t.call(
      'patients',
      'create',
      {
        businessId,
        patient: {
          displayId: '943 476 5919',
          name: { given: ' Ada ', family: 'Lovelace' },
          mobileNumber: '07700 900123',
          dateOfBirth: '1915-12-10',
          address: { line1: '1 High Street', postcode: 'sw1a1aa' },
        },
      },
      as,
    );
    expect(created.status).toBe(200);
    expect(created.body.patient).toMatchObject({
      businessId,
      displayId: '9434765919',
      name: 'Ada Lovelace',
      mobileNumber: '+447700900123',
      dateOfBirth: '1915-12-10',
      email: null,
      address: { line1: '1 High Street', line2: null, line3: null, postTown: null, postcode: 'SW1A 1AA' },
      deleted: null,
      lastSmsFailure: null,
    });
    const got = await t.call('patients', 'get', { id: created.body.patient.id }, as);
    expect(got.body.patient).toEqual(created.body.patient);
  });

  it('audits a patient opened as its own entry and a page of patients as one, by id, never by name', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    await t.call('patients', 'get', { id: body.patient.id }, as);
    await t.call('patients', 'list', { businessId }, as);
    await t.call('patients', 'batchGet', { ids: [body.patient.id, 'nope'] }, as);
    const reads = await listAudit(t.db, 'patient.read');
    expect(reads.map((r) => r.details)).toEqual([{ via: 'get' }]);
    expect(reads[0]).toMatchObject({ entityType: 'patient', entityId: body.patient.id, actorDisplay: 'Sam Support' });
    const pages = await listAudit(t.db, 'patient.list');
    expect(pages.map((r) => r.details)).toEqual([
      { via: 'list', filtered: false, ids: [body.patient.id] },
      { via: 'batchGet', ids: [body.patient.id] },
    ]);
    expect(pages[0]).toMatchObject({ entityType: 'patient', entityId: null, actorDisplay: 'Sam Support' });
    const everything = JSON.stringify(await listAudit(t.db));
    expect(everything).not.toContain('Given1');
    expect(everything).not.toContain('Family1');
    expect(everything).not.toContain(body.patient.displayId);
    expect((await listAudit(t.db, 'patient.create'))[0]?.entityId).toBe(body.patient.id);
  });

  it("refuses a patient breaking SPEC §5's form rules, with each field's id and the forms' words", async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const res = await t.call(
      'patients',
      'create',
      {
        businessId,
        patient: {
          displayId: 'A1',
          name: {},
          mobileNumber: '01234 567890',
          email: 'not-an-email',
          dateOfBirth: '2999-01-01',
        },
      },
      as,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'patient.name', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'patient.dateOfBirth', id: 'DATE_NOT_IN_PAST', message: 'Date must be in the past' },
      { path: 'patient.email', id: 'EXPECTED_EMAIL', message: 'Enter a valid email address' },
      { path: 'patient.mobileNumber', id: 'INVALID_UK_MOBILE', message: 'Invalid UK mobile number' },
    ]);

    // An edit answers in the same words; so do the rules the import has no word for.
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const edit = await t.call(
      'patients',
      'update',
      {
        id: body.patient.id,
        patient: {
          displayId: 'A1',
          name: { full: 'x'.repeat(201) },
          mobileNumber: ' ',
          dateOfBirth: '31-02-1990',
          address: { line1: '1 High Street', postcode: 'not a postcode' },
        },
      },
      as,
    );
    expect(edit.status).toBe(400);
    expect(edit.body.error.details).toEqual([
      { path: 'patient.name.full', id: 'INVALID_LENGTH', message: 'Value must be at most 200 characters long' },
      { path: 'patient.dateOfBirth', id: 'INVALID_DATE', message: 'Invalid date' },
      { path: 'patient.mobileNumber', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'patient.address.postcode', id: 'INVALID_UK_POSTCODE', message: 'Invalid UK postcode' },
    ]);
  });

  it('requires a valid NHS number as display id when the business says validateNhsNumber', async () => {
    const as = await support();
    const nhs = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const bad = await t.call(
      'patients',
      'create',
      { businessId: nhs, patient: testPatient(1, { displayId: '9434765918' }) },
      as,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { path: 'patient.displayId', id: 'INVALID_NHS_NUMBER', message: 'Invalid NHS/CHI number' },
    ]);
    const own = await insertBusiness(t.db, {
      displayIdField: { name: 'Patient ID', required: true, validateNhsNumber: false },
    });
    const ok = await t.call(
      'patients',
      'create',
      { businessId: own, patient: testPatient(1, { displayId: 'P-0001' }) },
      as,
    );
    expect(ok.body.patient.displayId).toBe('P-0001');
  });

  it('requires a display id unless the business makes it optional, then gives the patient its own id', async () => {
    const as = await support();
    const required = await insertBusiness(t.db, {
      displayIdField: { name: 'ID', required: true, validateNhsNumber: false },
    });
    const refused = await t.call(
      'patients',
      'create',
      { businessId: required, patient: testPatient(1, { displayId: ' ' }) },
      as,
    );
    expect(refused.body.error.details).toEqual([
      { path: 'patient.displayId', id: 'REQUIRED', message: 'Please enter a value' },
    ]);
    const optional = await insertBusiness(t.db, {
      displayIdField: { name: 'ID', required: false, validateNhsNumber: true },
    });
    const a = await t.call(
      'patients',
      'create',
      { businessId: optional, patient: testPatient(1, { displayId: '' }) },
      as,
    );
    const b = await t.call(
      'patients',
      'create',
      { businessId: optional, patient: testPatient(2, { displayId: '' }) },
      as,
    );
    expect(a.body.patient.displayId).toBe(a.body.patient.id);
    expect(b.body.patient.displayId).toBe(b.body.patient.id);
  });

  it('refuses a display id another current patient of the business has (409)', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const again = await t.call(
      'patients',
      'create',
      { businessId, patient: testPatient(2, { displayId: testPatient(1).displayId }) },
      as,
    );
    expect(again.status).toBe(409);
    expect(
      await t.db.selectFrom('audit_log').where('action', '=', 'patient.create').select('id').execute(),
    ).toHaveLength(1);
  });

  it('updates a patient, auditing the names of the changed fields only', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const res = await t.call(
      'patients',
      'update',
      { id: body.patient.id, patient: testPatient(1, { email: 'new@example.com' }) },
      as,
    );
    expect(res.body.patient.email).toBe('new@example.com');
    const [entry] = await listAudit(t.db, 'patient.update');
    expect(entry?.details).toEqual({ via: 'update', fields: ['email'] });
  });

  it('keeps the given and family names of an edit that sends the full name only, so a surname search still finds the patient', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const imported = testPatient(1, { name: { given: 'Ada', family: 'Lovelace' } });
    await t.call('patients', 'batchUpsertPatients', { businessId, patients: [imported] }, as);
    const [{ id } = { id: '' }] = (await t.call('patients', 'list', { businessId }, as)).body.patients;
    const nameParts = async () =>
      t.db.selectFrom('patients').select(['given_name', 'family_name']).where('id', '=', id).executeTakeFirstOrThrow();
    const found = async (filter: string) =>
      (await t.call('patients', 'list', { businessId, filter }, as)).body.patients.map((p) => p.name);
    // What the console's edit form sends: the name as one field, here unchanged, and a new email.
    const edit = (full: string) =>
      t.call('patients', 'update', { id, patient: { ...imported, name: { full }, email: 'ada.new@example.com' } }, as);

    expect((await edit('Ada Lovelace')).status).toBe(200);
    expect(await nameParts()).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
    expect(await found('lovel')).toEqual(['Ada Lovelace']);
    const [entry] = await listAudit(t.db, 'patient.update');
    expect(entry?.details).toEqual({ via: 'update', fields: ['email'] });

    // A new surname after the same given name: the rest of the name is the family name.
    await edit('Ada King');
    expect(await nameParts()).toEqual({ given_name: 'Ada', family_name: 'King' });
    expect(await found('King')).toEqual(['Ada King']);
    expect(await found('lovel')).toEqual([]);
    // A name sharing neither part is a full name only, as a patient imported by Full Name.
    await edit('Augusta Byron');
    expect(await nameParts()).toEqual({ given_name: '', family_name: '' });
    expect(await found('Augusta')).toEqual(['Augusta Byron']);
    // Parts sent are stored as sent.
    await t.call(
      'patients',
      'update',
      { id, patient: { ...imported, name: { given: 'Augusta', family: 'King' } } },
      as,
    );
    expect(await nameParts()).toEqual({ given_name: 'Augusta', family_name: 'King' });
    expect(await found('king')).toEqual(['Augusta King']);
  });

  it("keeps the given and family names a file mapped by Full Name is imported over, on both of the import's paths", async () => {
    const as = await support();
    const outcome = async (settledOnly: boolean) => {
      const businessId = await insertBusiness(t.db);
      const byParts = [1, 2, 3].map((i) => testPatient(i, { name: { given: `Ada${i}`, family: `Lovelace${i}` } }));
      await t.call('patients', 'batchUpsertPatients', { businessId, patients: byParts }, as);
      // The same patients in a file whose Name column is mapped as Full Name: one unchanged, one with a
      // new surname, one with a name sharing neither part.
      const names = ['Ada1 Lovelace1', 'Ada2 King', 'Augusta Byron'];
      const rows = byParts.map(
        (p, i): UpsertRow => ({
          ord: i,
          id: Bun.randomUUIDv7(),
          digest: `full-name-${i}`,
          displayId: p.displayId,
          givenName: '',
          familyName: '',
          fullName: names[i] as string,
          dateOfBirth: '1980-01-02',
          email: p.email ?? null,
          mobileNumber: p.mobileNumber,
          addressLine1: null,
          addressLine2: null,
          addressLine3: null,
          postTown: null,
          postcode: null,
        }),
      );
      const actor = { userId: null, display: 'test', ip: null, requestId: null };
      const write = async () =>
        (await upsertPatients(t.db, { businessId, rows, now: 2, auditId: Bun.randomUUIDv7(), actor }, { settledOnly }))
          .sort((a, b) => a.ord - b.ord)
          .map((r) => r.status);
      const first = await write();
      const again = await write();
      const stored = await t.db
        .selectFrom('patients')
        .select(['given_name', 'family_name', 'full_name'])
        .where('business_id', '=', businessId)
        .orderBy('display_id')
        .execute();
      const found = (await t.call('patients', 'list', { businessId, filter: 'lovelace1' }, as)).body.patients;
      return { first, again, stored, found: found.map((p) => p.name) };
    };
    const usual = await outcome(false);
    expect(usual).toEqual(await outcome(true));
    expect(usual.first).toEqual(['unchanged', 'updated', 'updated']);
    expect(usual.again).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(usual.stored).toEqual([
      { given_name: 'Ada1', family_name: 'Lovelace1', full_name: 'Ada1 Lovelace1' },
      { given_name: 'Ada2', family_name: 'King', full_name: 'Ada2 King' },
      { given_name: '', family_name: '', full_name: 'Augusta Byron' },
    ]);
    expect(usual.found).toEqual(['Ada1 Lovelace1']);
  });

  it('stores the same name parts on an import as on an edit (the SQL and the function agree)', async () => {
    // [stored given, family, full], [sent given, family, full]
    const cases: [string[], string[]][] = [
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Ada Lovelace'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Ada King'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Augusta Ada LOVELACE'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'ada   King'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Lovelace'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Ada'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['', '', 'Augusta Byron'],
      ],
      [
        ['Ada', 'Lovelace', 'Ada Lovelace'],
        ['Augusta', 'King', 'Augusta King'],
      ],
      [
        ['Ada', '', 'Ada'],
        ['', '', 'Ada King'],
      ],
      [
        ['', 'Lovelace', 'Lovelace'],
        ['', '', 'Dr Lovelace'],
      ],
      [
        ['', '', 'Ada Lovelace'],
        ['', '', 'Ada King'],
      ],
      [
        ['Zoë', 'Brontë', 'Zoë Brontë'],
        ['', '', 'Zoë Smith'],
      ],
    ];
    for (const [[given, family, full], [sentGiven, sentFamily, sentFull]] of cases) {
      const values = { givenName: sentGiven, familyName: sentFamily, fullName: sentFull } as PatientValues;
      const sent = sentGiven || sentFamily ? { given: sentGiven, family: sentFamily } : { full: sentFull };
      const expected = namePartsOnUpdate(sent, values, { given: given ?? '', family: family ?? '', full: full ?? '' });
      const parts = storedNameParts('c', 'i');
      const { rows } = await sql<{ givenName: string; familyName: string }>`
        select ${parts.given} as "givenName", ${parts.family} as "familyName"
        from (select ${given}::text as given_name, ${family}::text as family_name, ${full}::text as full_name) c,
          (select ${sentGiven}::text as given_name, ${sentFamily}::text as family_name, ${sentFull}::text as full_name) i
      `.execute(t.db);
      expect({ case: [full, sentFull], ...rows[0] }).toEqual({ case: [full, sentFull], ...expected });
    }
  });

  it('soft-deletes a patient: kept with who deleted it, hidden from onlyCurrent, display id free again', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    const deleted = await t.call('patients', 'delete', { id: body.patient.id }, as);
    expect(deleted.body.patient.deleted).toEqual({
      deletedAt: expect.any(Number),
      deletedById: expect.any(String),
      deletedByDisplayName: 'Sam Support',
    });
    expect((await t.call('patients', 'delete', { id: body.patient.id }, as)).status).toBe(409);
    expect((await t.call('patients', 'update', { id: body.patient.id, patient: testPatient(1) }, as)).status).toBe(409);
    const all = await t.call('patients', 'list', { businessId }, as);
    expect(all.body.patients.map((p) => p.id)).toEqual([body.patient.id]);
    expect((await t.call('patients', 'list', { businessId, onlyCurrent: true }, as)).body.patients).toEqual([]);
    const reused = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    expect(reused.status).toBe(200);
    expect((await listAudit(t.db, 'patient.delete'))[0]?.entityId).toBe(body.patient.id);
  });

  it('lists only patients whose last SMS or email failed with onlyWithIssues', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await t.call('patients', 'create', { businessId, patient: testPatient(i) }, as)).body.patient.id);
    const failure = JSON.stringify({ error: 'Unknown subscriber', timestamp: 5 });
    await t.db
      .updateTable('patients')
      .set({ last_sms_failure: failure })
      .where('id', '=', ids[0] as string)
      .execute();
    await t.db
      .updateTable('patients')
      .set({ last_email_failure: failure })
      .where('id', '=', ids[2] as string)
      .execute();
    const res = await t.call('patients', 'list', { businessId, onlyWithIssues: true, onlyCurrent: true }, as);
    expect<unknown>(res.body.patients.map((p) => p.id)).toEqual([ids[0], ids[2]]);
    expect(res.body.patients[0]?.lastSmsFailure).toEqual({ error: 'Unknown subscriber', timestamp: 5 });
  });

  it('filters by text anywhere in the name, display id, mobile or email, in any case', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const add = (patient: ReturnType<typeof testPatient>) => t.call('patients', 'create', { businessId, patient }, as);
    await add(
      testPatient(1, {
        displayId: 'AB-100',
        name: { full: 'Margaret Thatcher' },
        mobileNumber: '07700900001',
        email: 'maggie@example.com',
      }),
    );
    await add(
      testPatient(2, {
        displayId: 'cd-200',
        name: { given: 'Rhys', family: "O'Neill" },
        mobileNumber: '07700900222',
        email: 'rhys@example.com',
      }),
    );
    const names = async (filter: string) =>
      (await t.call('patients', 'list', { businessId, filter }, as)).body.patients.map((p) => p.name);
    expect(await names('MARG')).toEqual(['Margaret Thatcher']);
    expect(await names("o'ne")).toEqual(["Rhys O'Neill"]);
    expect(await names('ab-1')).toEqual(['Margaret Thatcher']);
    expect(await names('CD-2')).toEqual(["Rhys O'Neill"]);
    expect(await names('07700 900 2')).toEqual(["Rhys O'Neill"]);
    expect(await names('+44770090000')).toEqual(['Margaret Thatcher']);
    expect(await names('Maggie@')).toEqual(['Margaret Thatcher']);
    expect(await names('%')).toEqual([]);
    expect(await names('thatcher')).toEqual(['Margaret Thatcher']);
    expect(await names('GARET THA')).toEqual(['Margaret Thatcher']);
    expect(await names('-20')).toEqual(["Rhys O'Neill"]);
    expect(await names('900222')).toEqual(["Rhys O'Neill"]);
    expect(await names('@EXAMPLE')).toEqual(['Margaret Thatcher', "Rhys O'Neill"]);
    // An email typed with its '@': the index is read by the part before it, the whole text still decides.
    expect(await names('MAGGIE@EXAMPLE.C')).toEqual(['Margaret Thatcher']);
    expect(await names('aggie@example.co.uk')).toEqual([]);
    expect(await names('ys@example')).toEqual(["Rhys O'Neill"]);
    expect(await names('rhys@ex%')).toEqual([]);
    // A whole NHS number, typed grouped or not, finds its patient through the display-id index.
    await add(testPatient(3, { displayId: '9434765919', name: { full: 'Ada Lovelace' } }));
    expect(await names('943 476 5919')).toEqual(['Ada Lovelace']);
    expect(await names('9434765919')).toEqual(['Ada Lovelace']);
    expect(await names('943 476')).toEqual(['Ada Lovelace']);
  });

  it('pages by keyset without repeats while patients are being added', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    await t.call(
      'patients',
      'batchUpsertPatients',
      { businessId, patients: Array.from({ length: 60 }, (_, i) => testPatient(i)) },
      as,
    );
    const listPage = (token: string | null) =>
      t.call('patients', 'list', { businessId, ...(token ? { nextToken: token } : {}) }, as);
    const seen: string[] = [];
    let nextToken: string | null = null;
    let added = 0;
    do {
      const page: Awaited<ReturnType<typeof listPage>> = await listPage(nextToken);
      expect(page.status).toBe(200);
      seen.push(...page.body.patients.map((p) => p.id));
      nextToken = page.body.nextToken;
      // Someone imports more patients between page loads.
      if (added < 2) await t.call('patients', 'create', { businessId, patient: testPatient(1000 + added++) }, as);
    } while (nextToken);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(62);
    expect((await t.call('patients', 'list', { businessId, nextToken: 'garbage' }, as)).status).toBe(400);
  });

  it('upserts a batch on the display id, and the same batch twice changes nothing', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const batch = Array.from({ length: 5 }, (_, i) => testPatient(i));
    const first = await t.call('patients', 'batchUpsertPatients', { businessId, patients: batch }, as);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 5, updated: 0, unchanged: 0, invalid: 0 });
    expect(first.body.results.map((r) => r.status)).toEqual(['created', 'created', 'created', 'created', 'created']);
    const stamps = await t.db.selectFrom('patients').select(['id', 'updated']).orderBy('id').execute();
    t.advance(60_000);

    const second = await t.call('patients', 'batchUpsertPatients', { businessId, patients: batch }, as);
    expect(second.body).toMatchObject({ created: 0, updated: 0, unchanged: 5, invalid: 0 });
    expect(second.body.results.map((r) => r.id)).toEqual(first.body.results.map((r) => r.id));
    expect(await t.db.selectFrom('patients').select(['id', 'updated']).orderBy('id').execute()).toEqual(stamps);
    // One audit entry per batch written, listing the patients it created and updated; none for the
    // unchanged second batch.
    const imports = await listAudit(t.db, 'patient.import');
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatchObject({
      entityType: 'patient',
      details: { via: 'batchUpsertPatients', created: first.body.results.map((r) => r.id), updated: [] },
    });

    const changed = batch.map((p, i) => (i === 2 ? { ...p, email: 'changed@example.com' } : p));
    const third = await t.call(
      'patients',
      'batchUpsertPatients',
      { businessId, patients: [...changed, testPatient(99)] },
      as,
    );
    expect(third.body).toMatchObject({ created: 1, updated: 1, unchanged: 4, invalid: 0 });
    expect(third.body.results[2]).toEqual({ index: 2, status: 'updated', id: first.body.results[2]?.id as string });
    const [, thirdImport] = await listAudit(t.db, 'patient.import');
    expect(thirdImport?.details).toMatchObject({
      created: [third.body.results[5]?.id],
      updated: [first.body.results[2]?.id],
    });
    expect(await t.db.selectFrom('patients').select('id').execute()).toHaveLength(6);
  });

  it('trims address lines an import passes on as the file had them, and drops blank ones', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const res = await t.call(
      'patients',
      'batchUpsertPatients',
      {
        businessId,
        patients: [
          testPatient(1, {
            address: { line1: '  1 High Street ', line2: '   ', postTown: ' Leeds\t', postcode: ' ls1 4ap ' },
          }),
          testPatient(2, { address: { line1: ' ', line2: '' } }),
        ],
      },
      as,
    );
    expect(res.body).toMatchObject({ created: 2, invalid: 0 });
    const [first, second] = await Promise.all(
      res.body.results.map((r) => t.call('patients', 'get', { id: r.id as string }, as)),
    );
    expect(first?.body.patient.address).toEqual({
      line1: '1 High Street',
      line2: null,
      line3: null,
      postTown: 'Leeds',
      postcode: 'LS1 4AP',
    });
    expect(second?.body.patient.address).toBeNull();
  });

  it('stores awkward text exactly as given: quotes, braces, backslashes, commas, NULL, emoji', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const awkward = testPatient(1, {
      name: { given: 'NULL', family: 'O\'Neill "Jr", {x}' },
      address: { line1: 'Flat \\ 2, {Block} "A"', line2: 'NULL', line3: '🏠 ,,', postTown: '""', postcode: 'LS1 4AP' },
    });
    const res = await t.call(
      'patients',
      'batchUpsertPatients',
      { businessId, patients: [awkward, testPatient(2)] },
      as,
    );
    expect(res.body).toMatchObject({ created: 2, invalid: 0 });
    const got = await t.call('patients', 'get', { id: res.body.results[0]?.id as string }, as);
    expect(got.body.patient).toMatchObject({
      name: 'NULL O\'Neill "Jr", {x}',
      address: { line1: 'Flat \\ 2, {Block} "A"', line2: 'NULL', line3: '🏠 ,,', postTown: '""', postcode: 'LS1 4AP' },
    });
    const plain = await t.call('patients', 'get', { id: res.body.results[1]?.id as string }, as);
    expect(plain.body.patient.address).toBeNull();
  });

  it('writes a batch the same way on its usual path and on its on-conflict path (taken when another import races it)', async () => {
    const row = (i: number, email = `p${i}@example.com`): UpsertRow => ({
      ord: i,
      id: Bun.randomUUIDv7(),
      digest: `${i}-${email}`,
      displayId: testNhsNumber(i * 3),
      givenName: `Given${i}`,
      familyName: 'Family',
      fullName: `Given${i} Family`,
      dateOfBirth: '1980-01-02',
      email,
      mobileNumber: '+447700900123',
      addressLine1: null,
      addressLine2: null,
      addressLine3: null,
      postTown: null,
      postcode: null,
    });
    const actor = { userId: null, display: 'test', ip: null, requestId: null };
    const outcomes = async (settledOnly: boolean) => {
      const businessId = await insertBusiness(t.db);
      const run = async (rows: UpsertRow[]) =>
        (await upsertPatients(t.db, { businessId, rows, now: 1, auditId: Bun.randomUUIDv7(), actor }, { settledOnly }))
          .sort((a, b) => a.ord - b.ord)
          .map((r) => `${r.ord}:${r.status}`)
          .join(' ');
      const first = await run([row(0), row(1), row(2)]);
      const again = await run([row(0), row(1), row(2)]);
      const changed = await run([row(0), row(1, 'new@example.com'), row(2), row(3)]);
      const stored = await t.db
        .selectFrom('patients')
        .select(['display_id', 'email', 'import_digest'])
        .where('business_id', '=', businessId)
        .orderBy('display_id')
        .execute();
      return { first, again, changed, stored };
    };
    const usual = await outcomes(false);
    expect(usual).toEqual(await outcomes(true));
    expect(usual.first).toBe('0:created 1:created 2:created');
    expect(usual.again).toBe('0:unchanged 1:unchanged 2:unchanged');
    expect(usual.changed).toBe('0:unchanged 1:updated 2:unchanged 3:created');
    // Both paths keep the digest of the row as sent on what they wrote.
    expect(usual.stored.map((p) => p.import_digest)).toEqual(
      ['p0', 'new', 'p2', 'p3'].map((e, i) => `${i}-${e}@example.com`),
    );
    expect(usual.stored.map((p) => p.email)).toEqual([
      'p0@example.com',
      'new@example.com',
      'p2@example.com',
      'p3@example.com',
    ]);
  });

  it('refuses invalid rows itself even when the client skipped its checks, and keeps the good ones', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const res = await t.call(
      'patients',
      'batchUpsertPatients',
      {
        businessId,
        patients: [
          testPatient(1),
          testPatient(2, { displayId: '1234567890' }),
          testPatient(3, { mobileNumber: 'call me' }),
          testPatient(4, { name: { full: '  ' } }),
          testPatient(5, { dateOfBirth: '31-02-1990' }),
          testPatient(6, { displayId: testPatient(1).displayId }),
          testPatient(7, { displayId: '' }),
        ],
      },
      as,
    );
    expect(res.body.results).toEqual([
      { index: 0, status: 'created', id: expect.any(String) },
      { index: 1, status: 'invalid', errors: ['invalid NHS number: 1234567890'] },
      { index: 2, status: 'invalid', errors: ['invalid mobile number: call me'] },
      { index: 3, status: 'invalid', errors: ['missing name'] },
      { index: 4, status: 'invalid', errors: ['invalid date of birth: 31-02-1990'] },
      { index: 5, status: 'invalid', errors: [`duplicate ID field: ${testPatient(1).displayId}`] },
      { index: 6, status: 'invalid', errors: ['missing ID field'] },
    ]);
    expect(await t.db.selectFrom('patients').select('id').execute()).toHaveLength(1);
  });

  it('refuses a batch whose patient has an array for its address or name, storing nothing', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    for (const odd of [{ address: ['1 High Street'] }, { name: ['Ada', 'Lovelace'] }]) {
      const res = await t.call(
        'patients',
        'batchUpsertPatients',
        { businessId, patients: [testPatient(1), { ...testPatient(2), ...odd }] },
        as,
      );
      expect(res.status).toBe(400);
      // An array's items are keys the object does not declare: refused, naming the field.
      expect(JSON.stringify(res.body)).toMatch(/must be an object|Unknown field patients\.1\.(address|name)\.0/);
    }
    expect(await t.db.selectFrom('patients').select('id').execute()).toHaveLength(0);
  });

  it('takes at most 1024 patients a call', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const res = await t.call(
      'patients',
      'batchUpsertPatients',
      { businessId, patients: Array.from({ length: 1025 }, (_, i) => testPatient(i)) },
      as,
    );
    expect(res.status).toBe(400);
    const full = await t.call(
      'patients',
      'batchUpsertPatients',
      {
        businessId,
        patients: Array.from({ length: 1024 }, (_, i) =>
          testPatient(i, { email: undefined as never, displayId: testNhsNumber(i * 3) }),
        ).map(({ email: _, ...p }) => p),
      },
      as,
    );
    expect(full.status).toBe(200);
    expect(full.body.created).toBe(1024);
  });

  it('refuses any change to the patients of an archived business', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const { body } = await t.call('patients', 'create', { businessId, patient: testPatient(1) }, as);
    await t.db.updateTable('businesses').set({ archived_at: 5 }).where('id', '=', businessId).execute();
    const calls = [
      t.call('patients', 'create', { businessId, patient: testPatient(2) }, as),
      t.call('patients', 'update', { id: body.patient.id, patient: testPatient(1, { email: 'x@example.com' }) }, as),
      t.call('patients', 'delete', { id: body.patient.id }, as),
      t.call('patients', 'batchUpsertPatients', { businessId, patients: [testPatient(3)] }, as),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe('An archived business cannot have its patients changed');
    }
    expect((await t.call('patients', 'get', { id: body.patient.id }, as)).status).toBe(200);
    expect((await t.call('patients', 'create', { businessId: 'missing', patient: testPatient(2) }, as)).status).toBe(
      404,
    );
  });

  it('is for signed-in staff who reach the business: another business is not found for a pharmacy user', async () => {
    const businessId = await insertBusiness(t.db);
    expect((await t.call('patients', 'list', { businessId })).status).toBe(401);
    const pharmacist = await t.signIn();
    expect((await t.call('patients', 'list', { businessId }, { cookie: pharmacist.cookie })).status).toBe(404);
    const own = await t.signIn({ roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }] });
    expect((await t.call('patients', 'list', { businessId }, { cookie: own.cookie })).status).toBe(200);
  });
});
