import { expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { validBusiness } from '../testing/businesses.ts';
import { asSupport, seedBusiness, withTestAuth } from '../testing/hub.ts';

// A name with a line break would reach SMS and email bodies (and mail headers) as it is: every one-line
// name is refused with 400 naming the field, and nothing is stored.
describeApi(
  'names on one line',
  (t) => {
    const name = 'Boots\r\nBcc: someone@evil.example';
    const refusal = { status: 400, field: 'name', message: 'Value is not correctly formatted' };
    const answer = (res: { status: number; body: { error?: { details?: { path: string; message: string }[] } } }) => ({
      status: res.status,
      field: res.body.error?.details?.[0]?.path,
      message: res.body.error?.details?.[0]?.message,
    });

    it('refuses a business, group, machine or integration client named across lines, and stores nothing', async () => {
      await seedBusiness(t.db);
      expect(answer(await t.call('businesses', 'createBusiness', validBusiness(name), asSupport))).toEqual(refusal);
      expect(answer(await t.call('groups', 'createGroup', { name }, asSupport))).toEqual(refusal);
      expect(
        answer(await t.call('machines', 'createMachine', { businessId: 'b1', name, numberOfSlots: 4 }, asSupport)),
      ).toEqual(refusal);
      const client = {
        businessId: 'b1',
        name,
        contactEmail: 'pmr@example.test',
        suppressPatientMessages: false,
        webhookUrl: null,
        rateLimit: 1200,
      };
      expect(answer(await t.call('integration', 'createOrUpdateIntegrationClient', client, asSupport))).toEqual(
        refusal,
      );
      for (const table of ['groups', 'machines', 'integration_clients'] as const) {
        expect(await t.db.selectFrom(table).select('id').execute()).toEqual([]);
      }
      expect((await t.db.selectFrom('businesses').select('name').execute()).map((b) => b.name)).not.toContain(name);
    });
  },
  withTestAuth,
);
