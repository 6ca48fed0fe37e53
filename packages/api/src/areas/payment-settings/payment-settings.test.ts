import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { readPaymentSettings } from './service.ts';

const judo = {
  id: 'judo-1234567',
  sandbox: true,
  token: 'tok-PLAINTEXT-1111',
  secret: 'sec-PLAINTEXT-2222',
  showVisa: true,
  showAmex: false,
  showMastercard: true,
};
const settings = {
  businessId: 'b1',
  contactNumber: '0121 496 0000',
  legalInfo: 'High St Pharmacy Ltd',
  provider: 'judo' as const,
  judo,
};

describeApi(
  'payment settings',
  (t) => {
    const save = (input: Record<string, unknown>) =>
      t.call('paymentSettings', 'updatePaymentSettings', input, asSupport);

    it('stores the secret and token encrypted: the row holds no plaintext, and opens with the key', async () => {
      await seedBusiness(t.db);
      expect((await save(settings)).status).toBe(200);
      const row = await t.db
        .selectFrom('payment_settings')
        .selectAll()
        .where('business_id', '=', 'b1')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain('PLAINTEXT');
      expect(row.judo_secret_encrypted?.startsWith('v2.')).toBe(true);
      const opened = await readPaymentSettings(t.db, createSecretBox(t.deps.config.secretsKey), 'b1');
      expect(opened?.judo?.secret).toBe(judo.secret);
      expect(opened?.judo?.token).toBe(judo.token);
    });

    it('reads the secret and token masked, and a masked value sent back keeps the stored one', async () => {
      await seedBusiness(t.db);
      await save(settings);
      const read = await t.call('paymentSettings', 'getPaymentSettings', { businessId: 'b1' }, asSupport);
      expect(read.body.settings?.judo).toEqual({ ...judo, secret: '********2222', token: '********1111' });
      const again = await save({ ...settings, contactNumber: '0121 496 0001', judo: read.body.settings?.judo });
      expect(again.body.changedFields).toEqual(['contactNumber']);
      const opened = await readPaymentSettings(t.db, createSecretBox(t.deps.config.secretsKey), 'b1');
      expect(opened?.judo?.secret).toBe(judo.secret);
      expect(opened?.judo?.token).toBe(judo.token);
    });

    it('refuses a 7-character secret, and missing contact number and legal info', async () => {
      await seedBusiness(t.db);
      const res = await save({ ...settings, contactNumber: ' ', legalInfo: '', judo: { ...judo, secret: '1234567' } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'contactNumber', id: 'REQUIRED', message: 'Please enter a value' },
        { path: 'legalInfo', id: 'REQUIRED', message: 'Please enter a value' },
        { path: 'judo.secret', id: 'INVALID_LENGTH', message: 'Value must be at least 8 characters long' },
      ]);
      expect(await t.db.selectFrom('payment_settings').selectAll().execute()).toEqual([]);
    });

    it('refuses a masked value when nothing is stored to keep', async () => {
      await seedBusiness(t.db);
      const res = await save({ ...settings, judo: { ...judo, secret: '********2222' } });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe('judo.secret');
    });

    it('audits the names of changed fields, never the values', async () => {
      await seedBusiness(t.db);
      await save(settings);
      await save({ ...settings, judo: { ...judo, secret: 'sec-NEWVALUE-3333', showAmex: true } });
      const entries = await listAudit(t.db);
      const ours = entries.filter((e) => e.action.startsWith('paymentSettings.'));
      expect(ours.map((e) => e.action)).toEqual(['paymentSettings.create', 'paymentSettings.update']);
      expect(ours[1]?.details).toEqual({ fields: ['judo.secret', 'judo.showAmex'] });
      expect(JSON.stringify(entries)).not.toMatch(/PLAINTEXT|NEWVALUE|2222|3333/);
    });

    it('gives a payment page what it needs and nothing secret', async () => {
      await seedBusiness(t.db);
      await save(settings);
      const res = await t.call('paymentSettings', 'getPaymentClientSettings', { businessId: 'b1' }, asSupport);
      expect(res.body.settings).toEqual({
        businessId: 'b1',
        provider: 'judo',
        contactNumber: settings.contactNumber,
        legalInfo: settings.legalInfo,
        judoId: judo.id,
        sandbox: true,
        showVisa: true,
        showAmex: false,
        showMastercard: true,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/PLAINTEXT|\*{8}/);
    });

    it('saves without a card provider, and deletes', async () => {
      await seedBusiness(t.db);
      const res = await save({ ...settings, provider: null, judo: null });
      expect(res.body.settings).toMatchObject({ provider: null, judo: null });
      const del = await t.call('paymentSettings', 'deletePaymentSettings', { businessId: 'b1' }, asSupport);
      expect(del.body).toEqual({ ok: true });
      const read = await t.call('paymentSettings', 'getPaymentSettings', { businessId: 'b1' }, asSupport);
      expect(read.body.settings).toBeNull();
    });
  },
  withTestAuth,
);
