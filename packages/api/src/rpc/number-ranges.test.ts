import { expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { asSupport, seedBusiness, testMachine, withTestAuth } from '../testing/hub.ts';

describeApi(
  'every number has a range',
  (t) => {
    it('answers 400 naming the field for out-of-range numbers, never 500', async () => {
      await seedBusiness(t.db);
      const machine = await testMachine(t);
      const huge = 1e20;
      const calls: [string, string, Record<string, unknown>][] = [
        ['webhooks', 'listDeliveries', { businessId: 'b1', since: huge }],
        ['webhooks', 'replayFailed', { businessId: 'b1', since: huge }],
        ['evidence', 'getEvidencePack', { machineId: machine.id, from: 0, to: huge }],
        ['evidence', 'getEvidencePack', { machineId: machine.id, from: huge, to: huge }],
        ['globalSettings', 'createOrUpdateGlobalSettings', { nhsPrescriptionCharge: huge }],
        ['globalSettings', 'createOrUpdateGlobalSettings', { nhsPrescriptionCharge: 2 ** 31 }],
        [
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { orderCollection: { defaultCollectionWindow: huge } } },
        ],
        [
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { orderCollection: { defaultCollectionWindow: 2 ** 31 } } },
        ],
      ];
      const answers = [];
      for (const [area, method, input] of calls) {
        const res = await t.call(area as never, method as never, input, asSupport);
        answers.push(
          `${area}/${method} ${JSON.stringify(input)}: ${res.status} ${JSON.stringify(res.body?.error?.details?.[0]?.path ?? res.body?.error?.code)}`,
        );
      }
      expect(answers.filter((a) => !/: 400 /.test(a))).toEqual([]);
    });
  },
  withTestAuth,
);
