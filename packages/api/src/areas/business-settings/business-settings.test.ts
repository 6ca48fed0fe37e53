// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { expect, it } from 'bun:test';
import { defaultSmsTemplates } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { displayIdFieldOf } from '../patients/rules.ts';

const ready = 'Hi from ${businessName}: PIN ${pin}, collect by ${expires}.';

describeApi(
  'business settings',
  (t) => {
    const archive = (id: string) =>
      t.db.updateTable('businesses').set({ archived_at: 5 }).where('id', '=', id).execute();

    it('gives the default templates until a business words its own, each valid', async () => {
      await seedBusiness(t.db);
      const res = await t.call('businessSettings', 'getBusinessSmsTemplates', { businessId: 'b1' }, asSupport);
      expect(res.status).toBe(200);
      expect(res.body.templates).toEqual(defaultSmsTemplates);
      expect(res.body.customised).toEqual([]);
      const saved = await t.call(
        'businessSettings',
        'updateBusinessSmsTemplates',
        { businessId: 'b1', templates: defaultSmsTemplates },
        asSupport,
      );
      expect(saved.status).toBe(200);
    });

    it('saves a template and resets it to the default', async () => {
      await seedBusiness(t.db);
      const saved = await t.call(
        'businessSettings',
        'updateBusinessSmsTemplates',
        { businessId: 'b1', templates: { orderReady: ready } },
        asSupport,
      );
      expect(saved.body.templates.orderReady).toBe(ready);
      expect(saved.body.customised).toEqual(['orderReady']);
      const reset = await t.call(
        'businessSettings',
        'updateBusinessSmsTemplates',
        { businessId: 'b1', templates: {}, reset: ['orderReady'] },
        asSupport,
      );
      expect(reset.body.templates.orderReady).toBe(defaultSmsTemplates.orderReady);
      expect((await listAudit(t.db, 'businessSettings.smsTemplates.update')).map((a) => a.details)).toEqual([
        { fields: ['orderReady'] },
        { fields: ['orderReady'] },
      ]);
    });

    it('refuses a template missing ${pin}, and an unknown placeholder, saving neither', async () => {
      await seedBusiness(t.db);
      const res = await t.call(
        'businessSettings',
        'updateBusinessSmsTemplates',
        {
          businessId: 'b1',
          templates: { orderReady: 'Collect by ${expires}', orderCollected: 'Thanks ${bussinessName}' },
        },
        asSupport,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'templates.orderReady', id: 'MISSING_PLACEHOLDER', message: 'Missing ${pin} placeholder' },
        {
          path: 'templates.orderCollected',
          id: 'UNKNOWN_PLACEHOLDER',
          message: 'Unknown placeholder ${bussinessName}',
        },
      ]);
      expect(await t.db.selectFrom('business_sms_templates').selectAll().execute()).toEqual([]);
    });

    it('reads every feature setting with defaults, and keeps the jsonb the patients area reads', async () => {
      await seedBusiness(t.db);
      const before = await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId: 'b1' }, asSupport);
      expect(before.body.settings.orderCollection.defaultCollectionWindow).toBe(2);
      expect(before.body.settings.smsGateway).toBe('aws');
      const displayIdField = { name: 'NHS number', required: true, validateNhsNumber: true };
      const res = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: 'b1', settings: { displayIdField, orderCollection: { defaultCollectionWindow: 14 } } },
        asSupport,
      );
      expect(res.status).toBe(200);
      expect(res.body.settings.displayIdField).toEqual(displayIdField);
      const row = await t.db
        .selectFrom('business_feature_settings')
        .select('settings')
        .where('business_id', '=', 'b1')
        .executeTakeFirstOrThrow();
      expect(displayIdFieldOf(row.settings)).toEqual(displayIdField);
      const [entry] = await listAudit(t.db, 'businessSettings.features.update');
      expect(entry?.details).toEqual({
        fields: ['displayIdField.name', 'displayIdField.validateNhsNumber', 'orderCollection.defaultCollectionWindow'],
      });
    });

    it('refuses a 12-character sender ID and a collection window under 1 day', async () => {
      await seedBusiness(t.db);
      const res = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        {
          businessId: 'b1',
          settings: { smsSenderName: 'ABCDEFGHIJKL', orderCollection: { defaultCollectionWindow: 0 } },
        },
        asSupport,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        {
          path: 'settings.smsSenderName',
          id: 'INVALID_SENDER_ID',
          message:
            'The Sender ID must be 1-11 alpha-numeric or hyphen (-) characters. It has to start and end with an alphanumeric character',
        },
        {
          path: 'settings.orderCollection.defaultCollectionWindow',
          id: 'INVALID_MINIMUM_INTEGER',
          message: 'Invalid minimum integer, value cannot be smaller than 1',
        },
      ]);
    });

    it('keeps the controlled settings apart: support sets the gateway, the feature call cannot', async () => {
      await seedBusiness(t.db);
      const set = await t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId: 'b1', settings: { smsGateway: 'thesmsworks', enableWhatsApp: true } },
        asSupport,
      );
      expect(set.body.settings).toEqual({
        smsGateway: 'thesmsworks',
        enableWhatsApp: true,
        qrCodeIntegration: { enabled: false },
      });
      const features = await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId: 'b1' }, asSupport);
      expect(features.body.settings.smsGateway).toBe('thesmsworks');
      const bad = await t.call(
        'businessSettings',
        'updateBusinessControlledSettings',
        { businessId: 'b1', settings: { smsGateway: 'twilio' } },
        asSupport,
      );
      expect(bad.status).toBe(400);
      // A controlled setting sent to the feature call is refused, naming it, and nothing changes.
      const refused = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: 'b1', settings: { smsGateway: 'aws', sendOrderRemovedSms: false } },
        asSupport,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([
        {
          path: 'settings.smsGateway',
          id: 'UNKNOWN_FIELD',
          message: 'smsGateway is a controlled setting: support staff change it with updateBusinessControlledSettings',
        },
      ]);
      const after = await t.call('businessSettings', 'getBusinessControlledSettings', { businessId: 'b1' }, asSupport);
      expect(after.body.settings.smsGateway).toBe('thesmsworks');
      const featuresAfter = await t.call(
        'businessSettings',
        'getBusinessFeatureSettings',
        { businessId: 'b1' },
        asSupport,
      );
      expect(featuresAfter.body.settings.sendOrderRemovedSms).toBe(true);
      expect((await listAudit(t.db, 'businessSettings.controlled.update'))[0]?.details).toEqual({
        fields: ['enableWhatsApp', 'smsGateway'],
      });
    });

    it('refuses a feature setting it does not know, at any depth, naming it and changing nothing', async () => {
      await seedBusiness(t.db);
      const res = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: 'b1', settings: { charges: { enabled: true, currency: 'EUR' }, colour: 'red' } },
        asSupport,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION');
      expect(res.body.error.details).toEqual([
        { path: 'settings.charges.currency', id: 'UNKNOWN_FIELD', message: 'Unknown field settings.charges.currency' },
        { path: 'settings.colour', id: 'UNKNOWN_FIELD', message: 'Unknown field settings.colour' },
      ]);
      const after = await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId: 'b1' }, asSupport);
      expect(after.body.settings.charges).toEqual({ enabled: false });
    });

    it('refuses every settings change to an archived business, with a clear message', async () => {
      await seedBusiness(t.db);
      await archive('b1');
      const calls = [
        t.call(
          'businessSettings',
          'updateBusinessSmsTemplates',
          { businessId: 'b1', templates: { orderReady: ready } },
          asSupport,
        ),
        t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { sendOrderRemovedSms: false } },
          asSupport,
        ),
        t.call(
          'businessSettings',
          'updateBusinessControlledSettings',
          { businessId: 'b1', settings: { enableWhatsApp: true } },
          asSupport,
        ),
        t.call(
          'paymentSettings',
          'updatePaymentSettings',
          { businessId: 'b1', contactNumber: '0121 496 0000', legalInfo: 'Ltd', provider: null, judo: null },
          asSupport,
        ),
        t.call(
          'integration',
          'createOrUpdateIntegrationClient',
          {
            businessId: 'b1',
            name: 'PMR',
            contactEmail: 'a@b.co',
            suppressPatientMessages: false,
            webhookUrl: null,
            rateLimit: 1200,
          },
          asSupport,
        ),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(409);
        expect(res.body.error.message).toBe(
          'This business is archived: its settings cannot be changed. Unarchive the business first.',
        );
      }
      const read = await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId: 'b1' }, asSupport);
      expect(read.body.archived).toBe(true);
    });

    it('answers 404 for an unknown business, and for a business a pharmacy user does not reach', async () => {
      expect(
        (await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId: 'nope' }, asSupport)).status,
      ).toBe(404);
      await seedBusiness(t.db);
      const res = await t.call(
        'businessSettings',
        'getBusinessFeatureSettings',
        { businessId: 'b1' },
        { cookie: 'session=pharmacy' },
      );
      // A pharmacy user without a role on b1: not found, as for any business they do not reach.
      expect(res.status).toBe(404);
    });
  },
  withTestAuth,
);
