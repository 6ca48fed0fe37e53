// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { expect, it } from 'bun:test';
import { defaultSmsTemplates, defaultSmsTemplatesIn } from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { patientActor } from '../../testing/checkout.ts';
import { insertBusiness, testPatient } from '../../testing/patients.ts';
import { getPatientOrder, setPatientLanguage } from '../patient-orders/index.ts';
import { loadOrder } from './locker-service.ts';

/** A business in `language` with a patient, a machine, and orders loaded as the hub loads them. */
async function estate(t: TestApi, language?: 'en' | 'cy' | 'bilingual') {
  const as = { cookie: (await t.signIn({ support: true })).cookie };
  const businessId = await insertBusiness(t.db);
  const ok = async <T>(p: Promise<{ status: number; body: T }>) => {
    const res = await p;
    if (res.status !== 200) throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  if (language) {
    await ok(
      t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId, settings: { nation: 'wales', patientLanguage: language } },
        as,
      ),
    );
  }
  const patientId = (await ok(t.call('patients', 'create', { businessId, patient: testPatient(1) }, as))).patient
    .id as string;
  const machineId = (
    await ok(t.call('machines', 'createMachine', { businessId, name: 'Ffenestr', numberOfSlots: 4 }, as))
  ).machine.id as string;
  let n = 0;
  const loaded = async () => {
    const orderId = (await ok(t.call('orders', 'create', { businessId, patientId, barcode: `RX-${++n}` }, as))).order
      .id as string;
    await t.db
      .transaction()
      .execute((tx) =>
        loadOrder(
          tx,
          t.deps,
          { kind: 'locker', machineId, businessId, origin: { via: 'test', requestId: 'r', ip: null, userAgent: null } },
          orderId,
          { location: `A${n}` },
        ),
      );
    return orderId;
  };
  const sent = async (orderId: string) =>
    t.db
      .selectFrom('message_outbox')
      .select(['template_key', 'body', 'subject'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
  return { as, businessId, patientId, loaded, sent };
}

describeApi('patients’ languages', (t) => {
  it('sends a Welsh business’s patient the order-ready message in Welsh, its date with Welsh month names', async () => {
    const e = await estate(t, 'cy');
    const message = await e.sent(await e.loaded());
    expect(message.template_key).toBe('orderReady');
    expect(message.body).toStartWith('Mae eich archeb gan');
    expect(message.body).toContain('PIN: ${pin}');
    expect(message.body).toMatch(
      /Casglwch hi erbyn \d{1,2} (Ionawr|Chwefror|Mawrth|Ebrill|Mai|Mehefin|Gorffennaf|Awst|Medi|Hydref|Tachwedd|Rhagfyr) \d{4} am \d\d:\d\d\./,
    );
    expect(message.body).not.toContain('Your order');
  });

  it('sends a bilingual business’s patient one message, Welsh first, then English', async () => {
    const e = await estate(t, 'bilingual');
    const { body } = await e.sent(await e.loaded());
    const [welsh, english, ...rest] = body.split('\n\n');
    expect(rest).toEqual([]);
    expect(welsh).toStartWith('Mae eich archeb gan');
    expect(english).toStartWith('Your order from');
    // Each language carries the PIN placeholder the sender fills in.
    expect(body.match(/\$\{pin\}/g)).toHaveLength(2);
  });

  it('keeps English for a business that chose nothing', async () => {
    const e = await estate(t);
    expect((await e.sent(await e.loaded())).body).toStartWith('Your order from');
  });

  it('keeps the patient’s choice from their page and uses it for the next message and the page', async () => {
    const e = await estate(t, 'bilingual');
    const first = await e.loaded();
    const patient = patientActor(e) as Extract<Actor, { kind: 'patient' }>;
    expect((await getPatientOrder(t.deps, patient, { orderId: first })).language).toBe('cy');
    expect(await setPatientLanguage(t.deps, patient, { orderId: first, language: 'en' })).toEqual({ language: 'en' });
    const row = await t.db.selectFrom('patients').select('language').where('id', '=', e.patientId).executeTakeFirst();
    expect(row?.language).toBe('en');
    expect((await getPatientOrder(t.deps, patient, { orderId: first })).language).toBe('en');
    const next = await e.sent(await e.loaded());
    expect(next.body).toStartWith('Your order from');
    expect(next.body).not.toContain('Mae eich archeb');
  });

  it('keeps Welsh SMS templates apart from the English ones, with the same checks', async () => {
    const e = await estate(t, 'cy');
    const get = (language: 'en' | 'cy') =>
      t.call('businessSettings', 'getBusinessSmsTemplates', { businessId: e.businessId, language }, e.as);
    expect((await get('cy')).body.templates).toEqual(defaultSmsTemplatesIn.cy);
    const missingPin = await t.call(
      'businessSettings',
      'updateBusinessSmsTemplates',
      {
        businessId: e.businessId,
        language: 'cy',
        templates: { orderReady: 'Mae eich archeb yn barod erbyn ${expires}.' },
      },
      e.as,
    );
    expect(missingPin.status).toBe(400);
    expect(JSON.stringify(missingPin.body)).toContain('Missing ${pin} placeholder');
    const welsh = 'Helo! Mae eich archeb yn barod. PIN ${pin}, erbyn ${expires}.';
    const saved = await t.call(
      'businessSettings',
      'updateBusinessSmsTemplates',
      { businessId: e.businessId, language: 'cy', templates: { orderReady: welsh } },
      e.as,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.customised).toEqual(['orderReady']);
    expect((await get('en')).body.templates.orderReady).toBe(defaultSmsTemplates.orderReady);
    expect((await e.sent(await e.loaded())).body).toStartWith('Helo! Mae eich archeb yn barod. PIN ${pin}, erbyn ');
  });
});
