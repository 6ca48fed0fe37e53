import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { hashToken } from '../../sessions/tokens.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { findClient } from './repository.ts';
import { openWebhookSecret } from './service.ts';

const client = {
  businessId: 'b1',
  name: 'Example PMR',
  contactEmail: 'support@pmr.example',
  suppressPatientMessages: true,
  webhookUrl: 'https://pmr.example/hooks/medlocker',
  rateLimit: 1200,
};

describeApi(
  'integration',
  (t) => {
    const upsert = (input: Record<string, unknown> = {}) =>
      t.call('integration', 'createOrUpdateIntegrationClient', { ...client, ...input }, asSupport);

    it('shows a new client secret once, stores only its hash, then reads it masked with a leading *', async () => {
      await seedBusiness(t.db);
      const created = await upsert();
      expect(created.status).toBe(200);
      expect(created.body.client.hasSecret).toBe(false);
      const id = created.body.client.id;
      const { body } = await t.call('integration', 'generateClientSecret', { id }, asSupport);
      expect(body.secret).toMatch(/^mlc_[A-Za-z0-9_-]{43}$/);
      const row = await t.db
        .selectFrom('integration_clients')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(hashToken(body.secret));
      expect(JSON.stringify(row)).not.toContain(body.secret);
      const read = await t.call('integration', 'getIntegrationClient', { businessId: 'b1' }, asSupport);
      expect(read.body.client?.secret).toBe(`********${body.secret.slice(-4)}`);
      expect(read.body.client?.secret.startsWith('*')).toBe(true);
      expect(JSON.stringify(read.body)).not.toContain(body.secret);
    });

    it('keeps the stored secret when the masked value is saved back, and refuses a chosen one', async () => {
      await seedBusiness(t.db);
      const id = (await upsert()).body.client.id;
      const { secret } = (await t.call('integration', 'generateClientSecret', { id }, asSupport)).body;
      const read = await t.call('integration', 'getIntegrationClient', { businessId: 'b1' }, asSupport);
      const saved = await upsert({
        name: 'Renamed PMR',
        secret: read.body.client?.secret,
        webhookSecret: read.body.client?.webhookSecret,
      });
      expect(saved.status).toBe(200);
      const row = await t.db
        .selectFrom('integration_clients')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(hashToken(secret));
      expect(row.name).toBe('Renamed PMR');
      const chosen = await upsert({ secret: 'my-own-secret' });
      expect(chosen.status).toBe(400);
      expect(chosen.body.error.details[0].path).toBe('secret');
    });

    it('encrypts the webhook secret, shown in full only when made', async () => {
      await seedBusiness(t.db);
      const created = await upsert();
      const webhookSecret = created.body.webhookSecret as string;
      expect(webhookSecret).toMatch(/^whsec_/);
      expect(created.body.client.webhookSecret).toBe(`********${webhookSecret.slice(-4)}`);
      const row = await t.db.selectFrom('integration_clients').selectAll().executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(webhookSecret);
      const client = await findClient(t.db, row.id);
      expect(client && openWebhookSecret(t.deps, client)).toBe(webhookSecret);
      expect((await upsert()).body.webhookSecret).toBeNull();
    });

    it('checks the webhook URL, email and rate limit range', async () => {
      await seedBusiness(t.db);
      const res = await upsert({ webhookUrl: 'http://pmr.example/hook', contactEmail: 'nope', rateLimit: 100 });
      expect(res.status).toBe(400);
      const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
      expect([...res.body.error.details].sort(byPath)).toEqual([
        { path: 'contactEmail', id: 'INVALID_EMAIL', message: 'Invalid email' },
        {
          path: 'rateLimit',
          id: 'INVALID_RANGE',
          message: 'Invalid range, value must be an integer between 200 and 3600',
        },
        { path: 'webhookUrl', id: 'INVALID_FORMAT', message: 'The webhook URL must start with https://' },
      ]);
      // Loopback is refused unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (development, tests: webhooks/dispatch.test.ts).
      const local = await upsert({ webhookUrl: 'http://localhost:8080/hook', rateLimit: 3600 });
      expect([local.status, local.body.error.details[0].path]).toEqual([400, 'webhookUrl']);
      expect((await upsert({ webhookUrl: 'https://pmr.example/hook', rateLimit: 3600 })).status).toBe(200);
    });

    it('audits changed fields by name, and deletes the client', async () => {
      await seedBusiness(t.db);
      const id = (await upsert()).body.client.id;
      await upsert({ rateLimit: 2000, suppressPatientMessages: false });
      const [entry] = await listAudit(t.db, 'integrationClient.update');
      expect(entry?.details).toEqual({ fields: ['rateLimit', 'suppressPatientMessages'] });
      expect((await t.call('integration', 'deleteIntegrationClient', { id }, asSupport)).body).toEqual({ ok: true });
      expect(
        (await t.call('integration', 'getIntegrationClient', { businessId: 'b1' }, asSupport)).body.client,
      ).toBeNull();
    });

    it('keeps a list of known partners to pick from', async () => {
      await seedBusiness(t.db);
      const made = await t.call(
        'integration',
        'createIntegrationPartner',
        { name: 'Example PMR', contactEmail: 'support@pmr.example', suppressPatientMessages: true },
        asSupport,
      );
      const partnerId = made.body.partner.id;
      const clash = await t.call(
        'integration',
        'createIntegrationPartner',
        { name: 'example pmr', contactEmail: 'x@pmr.example', suppressPatientMessages: false },
        asSupport,
      );
      expect(clash.status).toBe(409);
      await upsert({ partnerId });
      const inUse = await t.call('integration', 'deleteIntegrationPartner', { id: partnerId }, asSupport);
      expect(inUse.status).toBe(409);
      const list = await t.call('integration', 'listIntegrationPartners', {}, asSupport);
      expect(list.body.partners.map((p) => p.name)).toEqual(['Example PMR']);
    });
  },
  withTestAuth,
);
