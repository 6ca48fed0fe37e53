import { afterAll, afterEach, expect, it } from 'bun:test';
import { createHmac } from 'node:crypto';
import { listAudit } from '../../audit/audit.ts';
import { configuredGateways } from '../../delivery/messages/gateways/index.ts';
import { messageSendHandler } from '../../delivery/messages/send.ts';
import { createRunner } from '../../jobs/runner.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { asSupport, type TestLocker, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { messagePort } from '../messages/index.ts';

/**
 * A local WhatsApp Cloud API: records each `POST /{phone-number-id}/messages` and answers as Meta does,
 * with a new `wamid.` id per message (kept with what it received).
 */
const cloudSeen: { path: string; authorization: string | null; body: Record<string, unknown>; wamid: string }[] = [];
let wamids = 0;
const cloudApi = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const body = (await req.json()) as Record<string, unknown>;
    const wamid = `wamid.test-${++wamids}`;
    cloudSeen.push({ path: new URL(req.url).pathname, authorization: req.headers.get('authorization'), body, wamid });
    return Response.json({
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: wamid }],
    });
  },
});
afterEach(() => {
  cloudSeen.length = 0;
});
afterAll(() => cloudApi.stop(true));

const APP_SECRET = 'whatsapp-app-secret-for-tests';
const env = {
  WHATSAPP_TOKEN: 'wa-test-token',
  WHATSAPP_PHONE_NUMBER_ID: '1234567890',
  WHATSAPP_API_URL: `http://127.0.0.1:${cloudApi.port}/v21.0`,
  WHATSAPP_APP_SECRET: APP_SECRET,
};

/** The code in the latest WhatsApp code message queued to `patientId` ('123 456' in its text). */
async function codeSentTo(t: TestApi, patientId: string): Promise<string> {
  const rows = await t.db
    .selectFrom('message_outbox')
    .select(['body', 'channel', 'template_key', 'created', 'id'])
    .where('patient_id', '=', patientId)
    .where('template_key', '=', 'whatsAppOptInCode')
    .orderBy('id', 'desc')
    .execute();
  const code = /is (\d{3}) (\d{3})\./.exec(rows[0]?.body ?? '');
  if (!code) throw new Error(`no code message to ${patientId}`);
  return `${code[1]}${code[2]}`;
}

/** A code that is not `code` (for wrong tries). */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describeApi(
  'WhatsApp opt-in',
  (t) => {
    let n = 0;
    const support = async () => ({
      cookie: (await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' })).cookie,
    });
    let asSupportOf: { cookie: string } = { cookie: '' };
    const enableWhatsApp = (businessId: string, on = true) =>
      t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId, settings: { enableWhatsApp: on } },
        asSupportOf,
      );

    /**
     * A business with WhatsApp on (unless asked) and one patient with a mobile (`noMobile`: the forms
     * require one, so the number is taken out in the database, as for patients from before that rule).
     */
    async function setUp(options: { whatsApp?: boolean; noMobile?: boolean } = {}) {
      asSupportOf = await support();
      const businessId = await insertBusiness(t.db);
      if (options.whatsApp !== false) expect((await enableWhatsApp(businessId)).status).toBe(200);
      n += 1;
      const created = await t.call('patients', 'create', { businessId, patient: testPatient(n) }, asSupportOf);
      expect(created.status).toBe(200);
      if (options.noMobile) {
        await t.db
          .updateTable('patients')
          .set({ mobile_number: null })
          .where('id', '=', created.body.patient.id)
          .execute();
      }
      return {
        businessId,
        patientId: created.body.patient.id as string,
        mobile: created.body.patient.mobileNumber as string,
      };
    }

    it('sends a 6-digit code by WhatsApp and opts the patient in when it is read back', async () => {
      const { patientId, mobile } = await setUp();
      const sent = await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ sentTo: `07••• •••${mobile.slice(-3)}`, expiresAt: t.deps.now() + 15 * 60_000 });
      const [message] = await t.db
        .selectFrom('message_outbox')
        .selectAll()
        .where('patient_id', '=', patientId)
        .execute();
      expect(message).toMatchObject({
        channel: 'whatsapp',
        recipient: mobile,
        template_key: 'whatsAppOptInCode',
        status: 'pending',
      });
      expect(message?.body).toMatch(
        /^Your Pharmacy \w+ code to get your pharmacy messages on WhatsApp is \d{3} \d{3}\. It expires in 15 minutes\./,
      );
      // Only a hash is kept.
      const code = await codeSentTo(t, patientId);
      const stored = await t.db.selectFrom('whatsapp_opt_in_codes').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(code);

      t.advance(60_000);
      const verified = await t.call(
        'users',
        'verifyWhatsAppOptInMessage',
        { patientId, code: `${code.slice(0, 3)} ${code.slice(3)}` },
        asSupportOf,
      );
      expect(verified.status).toBe(200);
      expect(verified.body.patient.whatsAppOptIn).toEqual({
        mobileNumber: mobile,
        at: t.deps.now(),
        byDisplayName: 'Sam Support',
      });
      const got = await t.call('patients', 'get', { id: patientId }, asSupportOf);
      expect(got.body.patient.whatsAppOptIn).toMatchObject({ mobileNumber: mobile });
      expect((await listAudit(t.db, 'patient.whatsAppOptIn')).map((a) => a.entityId)).toEqual([patientId]);
      expect((await listAudit(t.db, 'patient.whatsAppCodeSent')).map((a) => a.entityId)).toEqual([patientId]);

      // Used once: the same code again is expired, and a second opt-in is refused.
      const again = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code }, asSupportOf);
      expect(again.status).toBe(400);
      t.advance(60_000);
      const resend = await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      expect(resend.status).toBe(409);
      expect(resend.body.error.message).toBe('This patient is already opted in to WhatsApp on this number');
    });

    it('refuses a wrong code with the tries left, and spends the code after 5 wrong tries', async () => {
      const { patientId } = await setUp();
      await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      const code = await codeSentTo(t, patientId);
      const wrong = await t.call(
        'users',
        'verifyWhatsAppOptInMessage',
        { patientId, code: otherThan(code) },
        asSupportOf,
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatchObject({
        code: 'VALIDATION',
        details: [
          {
            path: 'code',
            id: 'INVALID_CODE',
            message: 'The code is wrong. Check it with the patient and try again (4 tries left).',
          },
        ],
      });
      for (let i = 0; i < 3; i++)
        await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code: otherThan(code) }, asSupportOf);
      const last = await t.call(
        'users',
        'verifyWhatsAppOptInMessage',
        { patientId, code: otherThan(code) },
        asSupportOf,
      );
      expect(last.body.error.message).toBe(
        'The code is wrong, and that was the last try. Send the patient a new code.',
      );
      const right = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code }, asSupportOf);
      expect(right.status).toBe(400);
      expect(right.body.error.message).toBe('The code has expired or was used up. Send the patient a new code.');
      expect((await t.call('patients', 'get', { id: patientId }, asSupportOf)).body.patient.whatsAppOptIn).toBeNull();
    });

    it('refuses a code after 15 minutes, and one that is not 6 digits without using a try', async () => {
      const { patientId } = await setUp();
      await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      const code = await codeSentTo(t, patientId);
      const typo = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code: '12a456' }, asSupportOf);
      expect(typo.status).toBe(400);
      expect(typo.body.error.details[0]).toMatchObject({ path: 'code', id: 'INVALID_CODE' });
      const [row] = await t.db.selectFrom('whatsapp_opt_in_codes').select('attempts').execute();
      expect(row?.attempts).toBe(0);
      t.advance(15 * 60_000 + 1);
      const late = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code }, asSupportOf);
      expect(late.status).toBe(400);
      expect(late.body.error.message).toBe('The code has expired or was used up. Send the patient a new code.');
    });

    it('replaces the old code with a new one, at most one a minute and 5 a day', async () => {
      const { patientId } = await setUp();
      expect((await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf)).status).toBe(200);
      const first = await codeSentTo(t, patientId);
      const soon = await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      expect(soon.status).toBe(429);
      expect(soon.headers.get('retry-after')).toBe('60');
      expect(soon.body.error.message).toContain('less than a minute ago');
      for (let i = 2; i <= 5; i++) {
        t.advance(60_000);
        expect((await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf)).status).toBe(200);
      }
      const fifth = await codeSentTo(t, patientId);
      t.advance(60_000);
      const sixth = await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.message).toBe(
        'This patient has been sent 5 WhatsApp codes today. Please try again in 24 hours.',
      );
      const messages = await t.db
        .selectFrom('message_outbox')
        .select('id')
        .where('patient_id', '=', patientId)
        .execute();
      expect(messages).toHaveLength(5);
      if (first !== fifth) {
        const old = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code: first }, asSupportOf);
        expect(old.status).toBe(400);
      }
      // A day after the first code, codes can be sent again.
      t.advance(24 * 60 * 60_000 - 5 * 60_000);
      asSupportOf = await support(); // the earlier session has expired by now
      expect((await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf)).status).toBe(200);
      const newest = await codeSentTo(t, patientId);
      expect(
        (await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code: newest }, asSupportOf)).status,
      ).toBe(200);
    });

    it('refuses a business without WhatsApp and a patient without a mobile, sending nothing', async () => {
      const off = await setUp({ whatsApp: false });
      const refused = await t.call('users', 'addWhatsAppOptIn', { patientId: off.patientId }, asSupportOf);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe('WhatsApp messages are not enabled for this business');
      const noMobile = await setUp({ noMobile: true });
      const refused2 = await t.call('users', 'addWhatsAppOptIn', { patientId: noMobile.patientId }, asSupportOf);
      expect(refused2.status).toBe(409);
      expect(refused2.body.error.message).toBe(
        'This patient has no UK mobile number: add one before sending a WhatsApp code',
      );
      expect(await t.db.selectFrom('message_outbox').select('id').execute()).toEqual([]);
      expect(await t.db.selectFrom('whatsapp_opt_in_codes').select('patient_id').execute()).toEqual([]);
      const unknown = await t.call('users', 'addWhatsAppOptIn', { patientId: 'nope' }, asSupportOf);
      expect(unknown.status).toBe(404);
    });

    it('lets a pharmacy user opt in a patient of their business, and not of another', async () => {
      const mine = await setUp();
      const theirs = await setUp();
      const pharmacist = await t.signIn({
        givenName: 'Pat',
        familyName: 'Pharmacist',
        roles: [{ name: 'Business', resourceType: 'business', resourceId: mine.businessId }],
      });
      const as = { cookie: pharmacist.cookie };
      // Another business's patient is out of reach: 404, as the patients area answers.
      expect((await t.call('users', 'addWhatsAppOptIn', { patientId: theirs.patientId }, as)).status).toBe(404);
      expect((await t.call('users', 'addWhatsAppOptIn', { patientId: mine.patientId }, as)).status).toBe(200);
      const code = await codeSentTo(t, mine.patientId);
      const other = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId: theirs.patientId, code }, as);
      expect(other.status).toBe(404);
      const verified = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId: mine.patientId, code }, as);
      expect(verified.status).toBe(200);
      expect(verified.body.patient.whatsAppOptIn?.byDisplayName).toBe('Pat Pharmacist');
    });

    it('clears the opt-in when the mobile changes (edit or import), and on opt-out', async () => {
      const { businessId, patientId } = await setUp();
      const optIn = async () => {
        t.advance(60_000);
        expect((await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf)).status).toBe(200);
        const code = await codeSentTo(t, patientId);
        expect((await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code }, asSupportOf)).status).toBe(
          200,
        );
      };
      const optInOf = async () =>
        (await t.call('patients', 'get', { id: patientId }, asSupportOf)).body.patient.whatsAppOptIn;
      const patient = testPatient(n);
      await optIn();
      // An edit that keeps the number keeps the opt-in.
      await t.call(
        'patients',
        'update',
        { id: patientId, patient: { ...patient, email: 'new@example.com' } },
        asSupportOf,
      );
      expect(await optInOf()).not.toBeNull();
      await t.call(
        'patients',
        'update',
        { id: patientId, patient: { ...patient, mobileNumber: '07700 900999' } },
        asSupportOf,
      );
      expect(await optInOf()).toBeNull();
      // Back to the old number: still not opted in.
      await t.call('patients', 'update', { id: patientId, patient }, asSupportOf);
      expect(await optInOf()).toBeNull();

      await optIn();
      const imported = await t.call(
        'patients',
        'batchUpsertPatients',
        { businessId, patients: [{ ...patient, name: { given: 'New', family: 'Name' } }] },
        asSupportOf,
      );
      expect(imported.body.results[0]?.status).toBe('updated');
      expect(await optInOf()).not.toBeNull();
      await t.call(
        'patients',
        'batchUpsertPatients',
        { businessId, patients: [{ ...patient, mobileNumber: '07700 900998' }] },
        asSupportOf,
      );
      expect(await optInOf()).toBeNull();

      await t.call('patients', 'update', { id: patientId, patient }, asSupportOf);
      await optIn();
      const out = await t.call('users', 'removeWhatsAppOptIn', { patientId }, asSupportOf);
      expect(out.status).toBe(200);
      expect(out.body.patient.whatsAppOptIn).toBeNull();
      expect((await listAudit(t.db, 'patient.whatsAppOptOut')).map((a) => a.entityId)).toEqual([patientId]);
    });

    it('takes back an outstanding code when the mobile changes', async () => {
      const { patientId } = await setUp();
      await t.call('users', 'addWhatsAppOptIn', { patientId }, asSupportOf);
      const code = await codeSentTo(t, patientId);
      await t.call(
        'patients',
        'update',
        { id: patientId, patient: testPatient(n, { mobileNumber: '07700 900997' }) },
        asSupportOf,
      );
      const late = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId, code }, asSupportOf);
      expect(late.status).toBe(400);
      expect(late.body.error.message).toBe('The code has expired or was used up. Send the patient a new code.');
    });
  },
  undefined,
  env,
);

describeApi(
  'WhatsApp messages to opted-in patients',
  (t) => {
    let n = 100;
    const runner = () =>
      createRunner({
        db: t.db,
        logger: t.deps.logger,
        now: t.deps.now,
        handlers: {
          'message.send': messageSendHandler(t.deps, {
            gateways: configuredGateways(t.deps.config, t.deps.mailer),
            areas: messagePort(t.deps),
          }),
        },
        baseDelayMs: 1_000,
        random: () => 0,
      });
    const drain = async () => {
      const r = runner();
      await r.tick();
      await r.idle();
    };
    const settings = (values: Record<string, unknown>, controlled: Record<string, unknown>) =>
      Promise.all([
        t.call('businessSettings', 'updateBusinessFeatureSettings', { businessId: 'b1', settings: values }, asSupport),
        t.call(
          'businessSettings',
          'updateBusinessControlledSettings',
          { businessId: 'b1', settings: controlled },
          asSupport,
        ),
      ]);
    /** A patient of b1, opted in to WhatsApp through the code the fake Cloud API received. */
    async function optedInPatient() {
      n += 1;
      const patient = (await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(n) }, asSupport))
        .body.patient;
      expect((await t.call('users', 'addWhatsAppOptIn', { patientId: patient.id }, asSupport)).status).toBe(200);
      await drain();
      const sent = cloudSeen.at(-1)?.body as { template: { components: { parameters: { text: string }[] }[] } };
      const text = sent.template.components[0]?.parameters[0]?.text ?? '';
      // English 'is 123 456.', Welsh 'yw 123 456.'
      const code = /(?:is|yw) (\d{3} \d{3})\./.exec(text)?.[1] ?? '';
      const verified = await t.call('users', 'verifyWhatsAppOptInMessage', { patientId: patient.id, code }, asSupport);
      expect(verified.status).toBe(200);
      return patient as { id: string; mobileNumber: string };
    }
    async function loadOrder(locker: TestLocker, patientId: string) {
      n += 1;
      const order = await t.call('orders', 'create', { businessId: 'b1', patientId, barcode: `RX-${n}` }, asSupport);
      expect(order.status).toBe(200);
      const loaded = await locker.call('BagLoaded', {
        eventId: `ev-${n}`,
        seq: n,
        created: t.deps.now(),
        barcode: `RX-${n}`,
        location: `A${n % 10}`,
      });
      expect(loaded[2]).toMatchObject({ orderId: order.body.order.id });
      return order.body.order.id as string;
    }
    const outbox = (orderId: string) =>
      t.db.selectFrom('message_outbox').selectAll().where('order_id', '=', orderId).execute();

    it('sends an opted-in patient’s order-ready message by WhatsApp to the Cloud API, and its delivery sets the order’s status', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        // Email-first would win for a patient with an address, but WhatsApp comes first for the opted in.
        await settings({ sendOnlyEmailIfPossible: true }, { enableWhatsApp: true });
        const patient = await optedInPatient();
        const codeMessage = cloudSeen[0];
        expect(codeMessage?.path).toBe('/v21.0/1234567890/messages');
        expect(codeMessage?.authorization).toBe('Bearer wa-test-token');
        expect(codeMessage?.body).toMatchObject({
          messaging_product: 'whatsapp',
          to: patient.mobileNumber.slice(1),
          type: 'template',
        });
        cloudSeen.length = 0;

        const orderId = await loadOrder(locker, patient.id);
        expect(await outbox(orderId)).toMatchObject([
          { channel: 'whatsapp', recipient: patient.mobileNumber, template_key: 'orderReady' },
        ]);
        await drain();
        expect(cloudSeen).toHaveLength(1);
        const sent = cloudSeen[0]?.body as Record<string, unknown> & {
          template: { name: string; components: { parameters: { text: string }[] }[] };
        };
        expect(sent.to).toBe(patient.mobileNumber.slice(1));
        expect(sent.template.name).toBe('medlocker_message');
        const pin = (await t.call('orders', 'setRevealPinReason', { id: orderId, reason: 'test' }, asSupport)).body
          .pin as string;
        expect(sent.template.components[0]?.parameters[0]?.text).toContain(`${pin.slice(0, 4)} ${pin.slice(4)}`);
        const [message] = await outbox(orderId);
        expect(message).toMatchObject({
          provider: 'whatsapp',
          provider_message_id: cloudSeen[0]?.wamid,
          status: 'pending',
        });
        expect((await t.call('orders', 'get', { id: orderId }, asSupport)).body.order.lastNotificationStatus).toBe(
          'pending',
        );

        const report = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: 'waba',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    statuses: [
                      {
                        id: cloudSeen[0]?.wamid,
                        status: 'delivered',
                        timestamp: '1',
                        recipient_id: sent.to,
                        biz_opaque_callback_data: message?.id,
                      },
                    ],
                  },
                },
              ],
            },
          ],
        });
        const answer = await t.raw('/hooks/messages/whatsapp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(report).digest('hex')}`,
          },
          body: report,
        });
        expect(answer.status).toBe(200);
        expect((await t.call('orders', 'get', { id: orderId }, asSupport)).body.order.lastNotificationStatus).toBe(
          'success',
        );
        const events = (await t.call('orders', 'listEvents', { orderId }, asSupport)).body.events.map(
          (e: { message: string }) => e.message,
        );
        expect(events).toContain(`WhatsApp message sent to 07••• •••${patient.mobileNumber.slice(-3)}`);
        expect(events).toContain('WhatsApp message delivered');
      });
    });

    it('sends a Welsh pharmacy’s order-ready message in Welsh as the template’s Welsh translation', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await settings({ nation: 'wales', patientLanguage: 'cy' }, { enableWhatsApp: true });
        try {
          const patient = await optedInPatient();
          cloudSeen.length = 0;
          await loadOrder(locker, patient.id);
          await drain();
          const sent = cloudSeen[0]?.body as {
            template: { language: { code: string }; components: { parameters: { text: string }[] }[] };
          };
          expect(sent.template.language).toEqual({ code: 'cy' });
          expect(sent.template.components[0]?.parameters[0]?.text).toStartWith('Mae eich archeb gan ');
        } finally {
          await settings({ nation: 'england', patientLanguage: 'en' }, {});
        }
      });
    });

    it('sends by SMS (or email-first) when the patient is not opted in, or the business turned WhatsApp off', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        await settings({ sendOnlyEmailIfPossible: false }, { enableWhatsApp: true });
        const optedIn = await optedInPatient();
        n += 1;
        const plain = (await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(n) }, asSupport))
          .body.patient;
        expect((await outbox(await loadOrder(locker, plain.id)))[0]).toMatchObject({
          channel: 'sms',
          recipient: plain.mobileNumber,
        });

        await settings({}, { enableWhatsApp: false });
        expect((await outbox(await loadOrder(locker, optedIn.id)))[0]).toMatchObject({
          channel: 'sms',
          recipient: optedIn.mobileNumber,
        });
        await settings({ sendOnlyEmailIfPossible: true }, {});
        expect((await outbox(await loadOrder(locker, optedIn.id)))[0]).toMatchObject({ channel: 'email' });
      });
    });
  },
  withTestAuth,
  env,
);

describeApi(
  'WhatsApp opt-in on a server without WhatsApp credentials',
  (t) => {
    it('refuses to send a code in production when WhatsApp is not set up, queuing nothing', async () => {
      const as = { cookie: (await t.signIn({ support: true })).cookie };
      const businessId = await insertBusiness(t.db);
      await t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId, settings: { enableWhatsApp: true } },
        as,
      );
      const patient = (await t.call('patients', 'create', { businessId, patient: testPatient(500) }, as)).body.patient;
      const refused = await t.call('users', 'addWhatsAppOptIn', { patientId: patient.id }, as);
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toBe('WhatsApp is not set up on this server, so no code can be sent');
      expect(await t.db.selectFrom('message_outbox').select('id').execute()).toEqual([]);
    });
  },
  undefined,
  {
    NODE_ENV: 'production',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    SMTP_URL: 'smtp://mail.example.test:587',
    PUBLIC_URL: 'https://lockers.example.test',
  },
);
