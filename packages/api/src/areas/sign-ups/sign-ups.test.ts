import { expect, it } from 'bun:test';
import { signUpCodes } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness, nhsSettings } from '../../testing/patients.ts';

const form = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  email: 'ada@example.com',
  mobileNumber: '07700 900123',
  address: { line1: '1 High Street', line2: null, line3: null, postTown: 'LEEDS', postcode: 'ls1 4ap' },
  ...overrides,
});

describeApi('sign-ups', (t) => {
  const support = async () => ({ cookie: (await t.signIn({ support: true })).cookie });

  /** The code last queued to a recipient, as the patient would read it. */
  const codeSentTo = async (recipient: string): Promise<string> => {
    const row = await t.db
      .selectFrom('message_outbox')
      .select('body')
      .where('recipient', '=', recipient)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return /code is (\d{6})/.exec(row.body)?.[1] as string;
  };
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  const newSignUp = async (as: { cookie: string }, overrides: Record<string, unknown> = {}) => {
    const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
    const res = await t.call('signUps', 'create', { businessId, signUp: form(overrides) }, as);
    expect(res.status).toBe(200);
    return { businessId, id: res.body.signUp.id, res };
  };

  it('creates a sign-up, normalised, and queues a code to its email and mobile', async () => {
    const as = await support();
    const { businessId, res } = await newSignUp(as);
    expect(res.body.signUp).toMatchObject({ businessId, mobileNumber: '+447700900123', status: 'new' });
    expect(res.body.signUp.address?.postcode).toBe('LS1 4AP');
    expect(res.body.verification).toEqual({
      emailCodeStatus: 'notChecked',
      mobileCodeStatus: 'notChecked',
      emailAttemptsLeft: signUpCodes.maxAttempts,
      mobileAttemptsLeft: signUpCodes.maxAttempts,
      emailCodeExpires: expect.any(Number),
      mobileCodeExpires: expect.any(Number),
    });
    expect(await codeSentTo('ada@example.com')).toMatch(/^\d{6}$/);
    expect(await codeSentTo('+447700900123')).toMatch(/^\d{6}$/);
    const stored = await t.db.selectFrom('patient_sign_ups').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(await codeSentTo('ada@example.com'));
  });

  it('takes a form that leaves out the fields it has no value for, storing them as null', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const res = await t.call(
      'signUps',
      'create',
      { businessId, signUp: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' } },
      as,
    );
    expect(res.status).toBe(200);
    expect(res.body.signUp).toMatchObject({ dateOfBirth: null, mobileNumber: null, address: null, status: 'new' });
    const { id } = res.body.signUp;
    const moved = await t.call(
      'signUps',
      'update',
      { id, signUp: { firstName: 'Grace', lastName: 'Hopper', address: { line1: '1 Navy Row', postcode: 'ls1 4ap' } } },
      as,
    );
    expect(moved.status).toBe(200);
    expect(moved.body.signUp).toMatchObject({
      email: null,
      address: { line1: '1 Navy Row', line2: null, line3: null, postTown: null, postcode: 'LS1 4AP' },
    });
    const nameless = await t.call('signUps', 'create', { businessId, signUp: { email: 'x@example.com' } }, as);
    expect(nameless.status).toBe(400);
  });

  it('refuses a form breaking the rules, field by field', async () => {
    const as = await support();
    const businessId = await insertBusiness(t.db);
    const res = await t.call(
      'signUps',
      'create',
      { businessId, signUp: form({ firstName: ' ', email: 'nope', mobileNumber: '0123', dateOfBirth: '2999-01-01' }) },
      as,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'signUp.firstName', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'signUp.dateOfBirth', id: 'DATE_NOT_IN_PAST', message: 'Date must be in the past' },
      { path: 'signUp.email', id: 'EXPECTED_EMAIL', message: 'Enter a valid email address' },
      { path: 'signUp.mobileNumber', id: 'INVALID_UK_MOBILE', message: 'Invalid UK mobile number' },
    ]);
  });

  it('answers codeIncorrect for a wrong code, then verified for the right one, and validates the sign-up', async () => {
    const as = await support();
    const { id } = await newSignUp(as);
    const emailCode = await codeSentTo('ada@example.com');
    const mobileCode = await codeSentTo('+447700900123');
    const bad = await t.call('signUps', 'verifyContactMethods', { id, emailCode: wrong(emailCode) }, as);
    expect(bad.body.verification).toMatchObject({
      emailCodeStatus: 'codeIncorrect',
      emailAttemptsLeft: 4,
      mobileCodeStatus: 'notChecked',
    });
    const good = await t.call('signUps', 'verifyContactMethods', { id, emailCode }, as);
    expect(good.body.verification).toMatchObject({
      emailCodeStatus: 'verified',
      emailAttemptsLeft: 0,
      emailCodeExpires: null,
    });
    expect(good.body.signUp.status).toBe('new');
    const both = await t.call('signUps', 'verifyContactMethods', { id, mobileCode, emailCode: '000000' }, as);
    expect(both.body.verification).toMatchObject({ emailCodeStatus: 'verified', mobileCodeStatus: 'verified' });
    expect(both.body.signUp.status).toBe('validated');
    expect((await listAudit(t.db, 'signUp.verify')).map((a) => a.details)).toEqual([
      { email: 'codeIncorrect' },
      { email: 'verified' },
      { email: 'verified', mobile: 'verified' },
    ]);
  });

  it(`answers codeExpired for the right code after ${signUpCodes.ttlMinutes} minutes`, async () => {
    const as = await support();
    const { id } = await newSignUp(as);
    const mobileCode = await codeSentTo('+447700900123');
    t.advance(signUpCodes.ttlMinutes * 60_000 + 1);
    const res = await t.call('signUps', 'verifyContactMethods', { id, mobileCode }, as);
    expect(res.body.verification.mobileCodeStatus).toBe('codeExpired');
  });

  it('spends a code after 5 wrong tries, until a new one is sent', async () => {
    const as = await support();
    const { id } = await newSignUp(as);
    const mobileCode = await codeSentTo('+447700900123');
    for (let i = 1; i <= signUpCodes.maxAttempts; i++) {
      const res = await t.call('signUps', 'verifyContactMethods', { id, mobileCode: wrong(mobileCode) }, as);
      expect(res.body.verification).toMatchObject({
        mobileCodeStatus: 'codeIncorrect',
        mobileAttemptsLeft: signUpCodes.maxAttempts - i,
      });
    }
    const late = await t.call('signUps', 'verifyContactMethods', { id, mobileCode }, as);
    expect(late.body.verification).toMatchObject({ mobileCodeStatus: 'codeExpired', mobileAttemptsLeft: 0 });
    const resent = await t.call('signUps', 'update', { id, signUp: form(), resendCodes: true }, as);
    expect(resent.body.verification).toMatchObject({ mobileCodeStatus: 'notChecked', mobileAttemptsLeft: 5 });
    const fresh = await codeSentTo('+447700900123');
    const ok = await t.call('signUps', 'verifyContactMethods', { id, mobileCode: fresh }, as);
    expect(ok.body.verification.mobileCodeStatus).toBe('verified');
  });

  it('asks for a changed contact to be verified again', async () => {
    const as = await support();
    const { id } = await newSignUp(as, { email: null });
    await t.call('signUps', 'verifyContactMethods', { id, mobileCode: await codeSentTo('+447700900123') }, as);
    expect((await t.call('signUps', 'get', { id }, as)).body.signUp.status).toBe('validated');
    const changed = await t.call(
      'signUps',
      'update',
      { id, signUp: form({ email: null, mobileNumber: '07700900999' }) },
      as,
    );
    expect(changed.body.signUp.status).toBe('new');
    expect(changed.body.verification.mobileCodeStatus).toBe('notChecked');
    expect(await codeSentTo('+447700900999')).toMatch(/^\d{6}$/);
  });

  it('converts a sign-up into a patient under the given display id, once', async () => {
    const as = await support();
    const { id, businessId } = await newSignUp(as);
    const bad = await t.call('signUps', 'convert', { id, displayId: '123' }, as);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { path: 'patient.displayId', id: 'INVALID_NHS_NUMBER', message: 'Invalid NHS/CHI number' },
    ]);
    const res = await t.call('signUps', 'convert', { id, displayId: '943 476 5919' }, as);
    expect(res.status).toBe(200);
    expect(res.body.patient).toMatchObject({
      businessId,
      displayId: '9434765919',
      name: 'Ada Lovelace',
      dateOfBirth: '1990-12-10',
      email: 'ada@example.com',
      mobileNumber: '+447700900123',
      address: { line1: '1 High Street', postTown: 'LEEDS', postcode: 'LS1 4AP' },
    });
    expect(res.body.signUp.status).toBe('confirmed');
    const patient = await t.call('patients', 'get', { id: res.body.patient.id }, as);
    expect(patient.status).toBe(200);
    expect((await t.call('signUps', 'convert', { id, displayId: '4010232110' }, as)).status).toBe(409);
    expect((await t.call('signUps', 'update', { id, signUp: form() }, as)).status).toBe(409);
    expect((await listAudit(t.db, 'patient.create'))[0]?.details).toEqual({ via: 'signUps.convert' });
  });

  it('will not convert a sign-up without a mobile, and says so of the sign-up rather than of the ID', async () => {
    const as = await support();
    const { id } = await newSignUp(as, { mobileNumber: null });
    const res = await t.call('signUps', 'convert', { id, displayId: '943 476 5919' }, as);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      {
        path: 'signUp.mobileNumber',
        id: 'REQUIRED',
        message: 'A patient needs a mobile number, and this sign-up has none.',
      },
    ]);
    expect((await t.call('signUps', 'get', { id }, as)).body.signUp.status).toBe('new');
    expect(await t.db.selectFrom('patients').select('id').execute()).toHaveLength(0);
  });

  it('lists waiting or past sign-ups, counts them, and tells their business', async () => {
    const as = await support();
    const { id, businessId } = await newSignUp(as);
    const other = await t.call(
      'signUps',
      'create',
      { businessId, signUp: form({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' }) },
      as,
    );
    await t.call(
      'signUps',
      'update',
      { id: other.body.signUp.id, signUp: form({ firstName: 'Grace', lastName: 'Hopper' }), status: 'rejected' },
      as,
    );
    const waiting = await t.call('signUps', 'list', { businessId }, as);
    expect(waiting.body.signUps.map((s) => s.id)).toEqual([id]);
    const past = await t.call('signUps', 'list', { businessId, past: true, filter: 'hop' }, as);
    expect(past.body.signUps.map((s) => s.status)).toEqual(['rejected']);
    expect((await t.call('signUps', 'list', { businessId, filter: '07700 900123' }, as)).body.signUps).toHaveLength(1);
    expect((await t.call('signUps', 'count', { businessId }, as)).body.count).toBe(1);
    expect((await t.call('signUps', 'count', { businessId, past: true }, as)).body.count).toBe(1);
    expect((await t.call('signUps', 'getBusinessId', { id }, as)).body.businessId).toBe(businessId);
    // Each page shown is one entry; a sign-up opened is its own.
    expect((await listAudit(t.db, 'signUp.list')).length).toBe(3);
    expect<unknown>((await t.call('signUps', 'delete', { id }, as)).body).toEqual({ ok: true });
    expect((await t.call('signUps', 'get', { id }, as)).status).toBe(404);
  });

  it('refuses sign-ups for an archived business', async () => {
    const as = await support();
    const { id, businessId } = await newSignUp(as);
    await t.db.updateTable('businesses').set({ archived_at: 5 }).where('id', '=', businessId).execute();
    expect((await t.call('signUps', 'create', { businessId, signUp: form() }, as)).status).toBe(409);
    expect((await t.call('signUps', 'convert', { id, displayId: '9434765919' }, as)).status).toBe(409);
  });
});
