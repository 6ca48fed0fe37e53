import { expect, it } from 'bun:test';
import { onlineSignUpLimits, signUpCodes } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { SIGN_UP_COOKIE } from '../../rpc/areas/patient-sign-ups.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { listen } from '../../testing/hub.ts';
import { insertBusiness } from '../../testing/patients.ts';
import { noSignUpHere, signUpsClosed } from './service.ts';

const form = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  email: 'ada@example.com',
  mobileNumber: '07700 900123',
  address: { line1: '1 High Street', line2: null, line3: null, postTown: 'LEEDS', postcode: 'ls1 4ap' },
  ...overrides,
});

describeApi('online sign-ups from the patient page', (t) => {
  const support = async () => ({ cookie: (await t.signIn({ support: true })).cookie });

  /** A business whose pharmacy turned online sign-ups on, as staff do in the settings page. */
  const openBusiness = async (more: Record<string, unknown> = {}) => {
    const businessId = await insertBusiness(t.db);
    const res = await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      {
        businessId,
        settings: { onlineSignups: { enabled: true, url: `https://medlocker.test/signup/${businessId}` }, ...more },
      },
      await support(),
    );
    expect(res.status).toBe(200);
    return businessId;
  };

  /** The `name=value` of the sign-up cookie an answer set. */
  const cookieOf = (headers: Headers): string => {
    const set = headers.getSetCookie().find((c) => c.startsWith(`${SIGN_UP_COOKIE}=`));
    expect(set).toBeDefined();
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    return (set as string).split(';')[0] as string;
  };

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
  const sentCount = async (recipient: string) =>
    (await t.db.selectFrom('message_outbox').select('id').where('recipient', '=', recipient).execute()).length;
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  const start = async (businessId: string, overrides: Record<string, unknown> = {}, cookie?: string) => {
    const res = await t.call('patientSignUps', 'create', { businessId, signUp: form(overrides) }, { cookie });
    expect(res.status).toBe(200);
    return { res, cookie: cookieOf(res.headers) };
  };

  it('signs a patient up: codes to the email and mobile, validated in the pharmacy list once both match', async () => {
    const businessId = await openBusiness();
    const page = await t.call('patientSignUps', 'business', { businessId });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ businessId, name: expect.stringMatching(/^Pharmacy /), patientLanguage: 'en' });

    const { res, cookie } = await start(businessId);
    // The answer says where the codes went, masked, and nothing else of the sign-up (no id, no name).
    expect(res.body).toEqual({
      businessId,
      businessName: page.body.name,
      status: 'new',
      email: 'a•••@example.com',
      mobileNumber: '07••• •••123',
      verification: expect.objectContaining({ emailCodeStatus: 'notChecked', mobileCodeStatus: 'notChecked' }),
      resendAfter: expect.any(Number),
    });

    const first = await t.call(
      'patientSignUps',
      'verify',
      { emailCode: await codeSentTo('ada@example.com') },
      { cookie },
    );
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('new');
    expect(first.body.verification.emailCodeStatus).toBe('verified');
    const both = await t.call(
      'patientSignUps',
      'verify',
      { mobileCode: await codeSentTo('+447700900123') },
      { cookie },
    );
    expect(both.body.status).toBe('validated');
    expect(both.body.resendAfter).toBeNull();
    expect((await t.call('patientSignUps', 'get', {}, { cookie })).body.status).toBe('validated');

    // The pharmacy sees it in its list, as staff-entered ones are, with the form as given (normalised).
    const list = await t.call('signUps', 'list', { businessId }, await support());
    expect(list.body.signUps).toHaveLength(1);
    expect(list.body.signUps[0]).toMatchObject({
      firstName: 'Ada',
      mobileNumber: '+447700900123',
      status: 'validated',
      address: expect.objectContaining({ postcode: 'LS1 4AP' }),
    });
    const actions = (await listAudit(t.db)).filter((a) => a.entityId === list.body.signUps[0]?.id).map((a) => a.action);
    expect(actions).toEqual(['signUp.create', 'signUp.verify', 'signUp.verify']);
    // The list page is one entry naming the sign-ups it showed.
    const [listed] = await listAudit(t.db, 'signUp.list');
    expect(listed?.details).toEqual({ via: 'list', filtered: false, ids: [list.body.signUps[0]?.id] });
    const created = (await listAudit(t.db, 'signUp.create'))[0];
    expect(created?.actorDisplay).toBe('online sign-up');
  });

  it('counts wrong codes, spends a code after the last try, and sends fresh ones on request', async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId, { email: null });
    const code = await codeSentTo('+447700900123');
    const once = await t.call('patientSignUps', 'verify', { mobileCode: wrong(code) }, { cookie });
    expect(once.status).toBe(200);
    expect(once.body.verification).toMatchObject({
      mobileCodeStatus: 'codeIncorrect',
      mobileAttemptsLeft: signUpCodes.maxAttempts - 1,
    });
    for (let i = 1; i < signUpCodes.maxAttempts; i++) {
      await t.call('patientSignUps', 'verify', { mobileCode: wrong(code) }, { cookie });
    }
    const spent = await t.call('patientSignUps', 'verify', { mobileCode: code }, { cookie });
    expect(spent.body.verification).toMatchObject({ mobileCodeStatus: 'codeExpired', mobileAttemptsLeft: 0 });
    expect(spent.body.status).toBe('new');

    // A resend within a minute of the last code is refused with the wait; after it, a fresh code works.
    const early = await t.call('patientSignUps', 'resendCodes', {}, { cookie });
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe(String(onlineSignUpLimits.resendAfterSeconds));
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const again = await t.call('patientSignUps', 'resendCodes', {}, { cookie });
    expect(again.status).toBe(200);
    expect(await sentCount('+447700900123')).toBe(2);
    const fresh = await codeSentTo('+447700900123');
    expect(fresh).toMatch(/^\d{6}$/);
    const ok = await t.call('patientSignUps', 'verify', { mobileCode: fresh }, { cookie });
    expect(ok.body.status).toBe('validated');
    const after = await t.call('patientSignUps', 'resendCodes', {}, { cookie });
    expect(after.status).toBe(409);
    expect(after.body.error.message).toBe('Every contact is already verified');
  });

  it('sends no more codes once the pharmacy stops taking sign-ups online; codes already sent still count', async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId, { email: null });
    const code = await codeSentTo('+447700900123');
    const off = await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      { businessId, settings: { onlineSignups: { enabled: false, url: null } } },
      await support(),
    );
    expect(off.status).toBe(200);
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const resend = await t.call('patientSignUps', 'resendCodes', {}, { cookie });
    expect(resend.status).toBe(404);
    expect(resend.body.error.message).toBe(signUpsClosed);
    expect(await sentCount('+447700900123')).toBe(1);
    // The person may still prove the code they have: the pharmacy judges the sign-up in its list.
    const verified = await t.call('patientSignUps', 'verify', { mobileCode: code }, { cookie });
    expect(verified.body.status).toBe('validated');
  });

  it('answers codeExpired for a code entered after its 15 minutes', async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId, { mobileNumber: null });
    const code = await codeSentTo('ada@example.com');
    t.advance(signUpCodes.ttlMinutes * 60_000 + 1);
    const late = await t.call('patientSignUps', 'verify', { emailCode: code }, { cookie });
    expect(late.body.verification.emailCodeStatus).toBe('codeExpired');
    expect(late.body.status).toBe('new');
  });

  it('stops sending codes for one sign-up after five sends', async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId, { email: null });
    for (let i = 1; i < onlineSignUpLimits.sendsPerSignUp; i++) {
      t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
      expect((await t.call('patientSignUps', 'resendCodes', {}, { cookie })).status).toBe(200);
    }
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const refused = await t.call('patientSignUps', 'resendCodes', {}, { cookie });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/No more codes can be sent for this sign-up/);
    expect(await sentCount('+447700900123')).toBe(onlineSignUpLimits.sendsPerSignUp);
  });

  it('tells the page a Welsh or bilingual pharmacy’s patient language, so it opens in Welsh', async () => {
    for (const patientLanguage of ['cy', 'bilingual'] as const) {
      const businessId = await openBusiness({ nation: 'wales', patientLanguage });
      const page = await t.call('patientSignUps', 'business', { businessId });
      expect(page.body).toMatchObject({ businessId, patientLanguage });
    }
  });

  it('refuses a business without online sign-ups, an archived one and an unknown one alike, changing nothing', async () => {
    const closed = await insertBusiness(t.db);
    const archived = await insertBusiness(t.db, { archived: true });
    for (const businessId of [closed, archived, 'no-such-business']) {
      const page = await t.call('patientSignUps', 'business', { businessId });
      expect(page.status).toBe(404);
      expect(page.body.error.message).toBe(signUpsClosed);
      const res = await t.call('patientSignUps', 'create', { businessId, signUp: form() });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(signUpsClosed);
    }
    expect(await t.db.selectFrom('patient_sign_ups').select('id').execute()).toHaveLength(0);
    expect(await t.db.selectFrom('message_outbox').select('id').execute()).toHaveLength(0);
  });

  it('refuses bad input field by field, and a form with neither email nor mobile', async () => {
    const businessId = await openBusiness();
    const bad = await t.call('patientSignUps', 'create', {
      businessId,
      signUp: form({ email: 'not-an-email', mobileNumber: '0123', dateOfBirth: '2999-01-01' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string; id: string }) => `${d.path} ${d.id}`).sort()).toEqual([
      'signUp.dateOfBirth DATE_NOT_IN_PAST',
      'signUp.email EXPECTED_EMAIL',
      'signUp.mobileNumber INVALID_UK_MOBILE',
    ]);
    const none = await t.call('patientSignUps', 'create', {
      businessId,
      signUp: form({ email: null, mobileNumber: null }),
    });
    expect(none.status).toBe(400);
    expect(none.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'signUp.email',
      'signUp.mobileNumber',
    ]);
    const extra = await t.call('patientSignUps', 'create', { businessId, signUp: form(), status: 'validated' });
    expect(extra.status).toBe(400);
    expect(await t.db.selectFrom('patient_sign_ups').select('id').execute()).toHaveLength(0);
  });

  it("reaches only this browser's sign-up: no cookie, a forged or an old one reach nothing, and staff methods stay staff's", async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId);
    const other = await start(businessId, { email: 'grace@example.com', mobileNumber: '07700 900456' });
    const code = await codeSentTo('ada@example.com');
    for (const as of [{}, { cookie: `${SIGN_UP_COOKIE}=${'x'.repeat(43)}` }, { cookie: `${SIGN_UP_COOKIE}=%zz` }]) {
      const res = await t.call('patientSignUps', 'verify', { emailCode: code }, as);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(noSignUpHere);
      expect((await t.call('patientSignUps', 'get', {}, as)).status).toBe(404);
      expect((await t.call('patientSignUps', 'resendCodes', {}, as)).status).toBe(404);
    }
    // Ada's code entered in Grace's browser checks Grace's sign-up (and fails there); Ada's is untouched.
    const crossed = await t.call('patientSignUps', 'verify', { emailCode: code }, { cookie: other.cookie });
    expect(crossed.body.verification.emailCodeStatus).toBe('codeIncorrect');
    const { id } = await t.db
      .selectFrom('patient_sign_ups')
      .select('id')
      .where('email', '=', 'ada@example.com')
      .executeTakeFirstOrThrow();
    // Without staff credentials the staff methods, which do take an id, answer 401.
    for (const method of ['get', 'verifyContactMethods', 'update', 'delete'] as const) {
      const res = await t.call('signUps', method, { id, emailCode: code } as never);
      expect(res.status).toBe(401);
    }
    expect((await t.call('patientSignUps', 'get', {}, { cookie })).body.verification.emailCodeStatus).toBe(
      'notChecked',
    );
    // A day later the cookie's sign-up is out of reach.
    t.advance(onlineSignUpLimits.accessHours * 60 * 60_000);
    expect((await t.call('patientSignUps', 'get', {}, { cookie })).status).toBe(404);
  });

  it('replaces the unfinished sign-up of the same browser, and drops unproven duplicates once one is validated', async () => {
    const businessId = await openBusiness();
    const first = await start(businessId, { email: 'ada@exmaple.com' });
    // The same browser starts again (a typo): the first one goes.
    const second = await start(businessId, {}, first.cookie);
    const rows = async () =>
      (await t.db.selectFrom('patient_sign_ups').select(['email', 'status']).orderBy('id').execute()).map(
        (r) => `${r.email} ${r.status}`,
      );
    expect(await rows()).toEqual(['ada@example.com new']);
    expect(await listAudit(t.db, 'signUp.withdrawn')).toHaveLength(1);
    const codes = { emailCode: await codeSentTo('ada@example.com'), mobileCode: await codeSentTo('+447700900123') };
    // Another browser with the same contacts (Ada on her phone), and one staff entered: both stay until
    // Ada proves her contacts; then the online one goes, the staff one stays for the pharmacy to judge.
    await start(businessId, { mobileNumber: null });
    await t.call('signUps', 'create', { businessId, signUp: form() }, await support());
    expect(await rows()).toHaveLength(3);
    await t.call('patientSignUps', 'verify', codes, { cookie: second.cookie });
    expect((await t.call('patientSignUps', 'get', {}, { cookie: second.cookie })).body.status).toBe('validated');
    expect((await rows()).sort()).toEqual(['ada@example.com new', 'ada@example.com validated']);
    const staffOne = await t.db.selectFrom('patient_sign_ups').select('source').where('status', '=', 'new').execute();
    expect(staffOne).toEqual([{ source: 'staff' }]);
    expect(await listAudit(t.db, 'signUp.superseded')).toHaveLength(1);
  });

  it('limits sends per business, whoever asks, with Retry-After', async () => {
    const businessId = await openBusiness();
    await t.db
      .insertInto('rate_buckets')
      .values({ key: `signup:business:${businessId}`, tokens: 0, refilled_at: t.deps.now() })
      .execute();
    const res = await t.call('patientSignUps', 'create', { businessId, signUp: form() });
    expect(res.status).toBe(429);
    const wait = Math.ceil((onlineSignUpLimits.sendsPerBusinessPerMinutes * 60) / onlineSignUpLimits.sendsPerBusiness);
    expect(res.headers.get('retry-after')).toBe(String(wait));
    expect(res.body.error.message).toBe(
      'This pharmacy has had too many sign-ups just now. Please try again in 1 minute.',
    );
    expect(await t.db.selectFrom('patient_sign_ups').select('id').execute()).toHaveLength(0);
    t.advance(wait * 1000);
    expect((await t.call('patientSignUps', 'create', { businessId, signUp: form() })).status).toBe(200);
  });

  it('limits codes to one mobile or email, over every business and whoever asks, giving the other allowances back', async () => {
    const a = await openBusiness();
    const b = await openBusiness();
    // Strangers in different browsers, all typing the same mobile number.
    for (let i = 0; i < onlineSignUpLimits.sendsPerContact; i++) {
      await start(i % 2 ? a : b, { email: `p${i}@example.com` });
    }
    const res = await t.call('patientSignUps', 'create', {
      businessId: a,
      signUp: form({ email: 'another@example.com', mobileNumber: '+44 7700 900123' }),
    });
    expect(res.status).toBe(429);
    const wait = Math.ceil((onlineSignUpLimits.sendsPerContactPerMinutes * 60) / onlineSignUpLimits.sendsPerContact);
    expect(res.headers.get('retry-after')).toBe(String(wait));
    expect(res.body.error.message).toBe(
      `Too many codes have been sent to this mobile number just now. Please try again in ${wait / 60} minutes.`,
    );
    expect(await sentCount('+447700900123')).toBe(onlineSignUpLimits.sendsPerContact);
    expect(await sentCount('another@example.com')).toBe(0);
    expect(await t.db.selectFrom('patient_sign_ups').select('id').execute()).toHaveLength(
      onlineSignUpLimits.sendsPerContact,
    );
    // Nothing was sent, so the business's allowance (and the email's) went back.
    const buckets = await t.db.selectFrom('rate_buckets').select(['key', 'tokens']).execute();
    const tokensOf = (key: string) => buckets.find((r) => r.key === key)?.tokens;
    expect(tokensOf(`signup:business:${a}`)).toBe(onlineSignUpLimits.sendsPerBusiness - 2);
    // The contacts' buckets are keyed by a hash: no email or mobile is kept in the table.
    expect(buckets.map((r) => r.key).filter((k) => /example\.com|7700900123/.test(k))).toEqual([]);
    // An email in other letter cases is the same contact (p0@example.com had one code above).
    const byEmail = (email: string) =>
      t.call('patientSignUps', 'create', { businessId: b, signUp: form({ email, mobileNumber: null }) });
    for (let i = 1; i < onlineSignUpLimits.sendsPerContact; i++) {
      expect((await byEmail(i % 2 ? 'P0@Example.com' : 'p0@EXAMPLE.com')).status).toBe(200);
    }
    const email = await byEmail('p0@example.com');
    expect(email.status).toBe(429);
    expect(email.body.error.message).toStartWith('Too many codes have been sent to this email address just now.');
    t.advance(wait * 1000);
    expect((await t.call('patientSignUps', 'create', { businessId: a, signUp: form() })).status).toBe(200);
  });

  it('sends once for resends at the same moment, and the refused ones cost no allowance', async () => {
    const businessId = await openBusiness();
    const { cookie } = await start(businessId, { email: null });
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.call('patientSignUps', 'resendCodes', {}, { cookie })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 429, 429, 429]);
    expect(await sentCount('+447700900123')).toBe(2);
    const business = await t.db
      .selectFrom('rate_buckets')
      .select('tokens')
      .where('key', '=', `signup:business:${businessId}`)
      .executeTakeFirstOrThrow();
    // Two sends (the first code and one resend), refilled a little over the minute.
    const refill = (onlineSignUpLimits.sendsPerBusiness / (onlineSignUpLimits.sendsPerBusinessPerMinutes * 60)) * 60;
    expect(business.tokens).toBeCloseTo(onlineSignUpLimits.sendsPerBusiness - 2 + refill, 6);
  });

  it('limits sends per client address across businesses, reserved before the work', async () => {
    const a = await openBusiness();
    const b = await openBusiness();
    const server = listen(t);
    try {
      const post = (businessId: string, i: number) =>
        fetch(`${server.http}/api/patientSignUps/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
          body: JSON.stringify({ businessId, signUp: form({ email: `p${i}@example.com`, mobileNumber: null }) }),
        });
      // All at once: exactly the address's allowance gets through.
      const answers = await Promise.all(
        Array.from({ length: onlineSignUpLimits.sendsPerAddress + 3 }, (_, i) => post(i % 2 ? a : b, i)),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(onlineSignUpLimits.sendsPerAddress);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3);
      const refused = answers.find((r) => r.status === 429) as Response;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error.message).toMatch(
        /^Too many sign-ups from this address\. Please try again in \d+ minutes?\.$/,
      );
      expect(await t.db.selectFrom('patient_sign_ups').select('id').execute()).toHaveLength(
        onlineSignUpLimits.sendsPerAddress,
      );
    } finally {
      server.stop();
    }
  });
});
