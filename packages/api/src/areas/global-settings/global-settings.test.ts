// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { expect, it } from 'bun:test';
import { defaultAlarmMessages, GlobalSettingsInput, isArkErrors } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'global settings',
  (t) => {
    it('sets the NHS prescription charge in pence', async () => {
      expect((await t.call('globalSettings', 'getGlobalSettings', {}, asSupport)).body.settings).toBeNull();
      const typed = GlobalSettingsInput({ nhsPrescriptionCharge: '9.90' });
      if (isArkErrors(typed)) throw new Error(typed.summary);
      const res = await t.call('globalSettings', 'createOrUpdateGlobalSettings', typed, asSupport);
      expect(res.body.settings).toEqual({
        nhsPrescriptionCharge: 990,
        inactiveAccountDays: 90,
        supportSecondFactorRequired: true,
      });
      await t.call('globalSettings', 'createOrUpdateGlobalSettings', { nhsPrescriptionCharge: 1000 }, asSupport);
      const read = await t.call('globalSettings', 'getGlobalSettings', {}, asSupport);
      expect(read.body).toEqual({
        settings: { nhsPrescriptionCharge: 1000, inactiveAccountDays: 90, supportSecondFactorRequired: true },
        updated: t.deps.now(),
      });
      expect((await listAudit(t.db, 'globalSettings.update')).length).toBe(2);
    });

    it('sets the days after which an unused account is disabled (90 until set), within 1 to 3650', async () => {
      const set = await t.call(
        'globalSettings',
        'createOrUpdateGlobalSettings',
        { nhsPrescriptionCharge: 990, inactiveAccountDays: 30 },
        asSupport,
      );
      expect(set.body.settings).toEqual({
        nhsPrescriptionCharge: 990,
        inactiveAccountDays: 30,
        supportSecondFactorRequired: true,
      });
      // Left out: kept.
      const kept = await t.call(
        'globalSettings',
        'createOrUpdateGlobalSettings',
        { nhsPrescriptionCharge: 980 },
        asSupport,
      );
      expect(kept.body.settings?.inactiveAccountDays).toBe(30);
      const audited = await listAudit(t.db, 'globalSettings.update');
      expect(audited.map((a) => a.details)).toContainEqual({ fields: ['inactiveAccountDays'], from: 90, to: 30 });
      for (const inactiveAccountDays of [0, 3651, 1.5]) {
        const res = await t.call(
          'globalSettings',
          'createOrUpdateGlobalSettings',
          { nhsPrescriptionCharge: 990, inactiveAccountDays },
          asSupport,
        );
        expect(res.status).toBe(400);
        expect(res.body.error.details[0].path).toBe('inactiveAccountDays');
      }
    });

    it('refuses a charge of 9.999 typed in pounds, and anything but whole pence', async () => {
      const typed = GlobalSettingsInput({ nhsPrescriptionCharge: '9.999' });
      expect(isArkErrors(typed) && typed.summary).toBe('Please enter a valid amount, e.g. “9.99”');
      for (const nhsPrescriptionCharge of [999.9, 0, -5]) {
        const res = await t.call(
          'globalSettings',
          'createOrUpdateGlobalSettings',
          { nhsPrescriptionCharge },
          asSupport,
        );
        expect(res.status).toBe(400);
        expect(res.body.error.details[0].message).toBe('Please enter a positive whole number');
      }
    });

    it('gives the SPEC §8 defaults, saves support wording that the machine hub reads, and resets', async () => {
      const res = await t.call('globalSettings', 'getAlarmMessageTemplates', {}, asSupport);
      expect(res.body.templates).toEqual(defaultAlarmMessages);
      const wording = 'Power cut at ${machineAndBusiness}. Go to ${supportArticle} to find the fix.';
      const saved = await t.call(
        'globalSettings',
        'updateAlarmMessageTemplates',
        { templates: { EM_0003: wording } },
        asSupport,
      );
      expect(saved.body.templates.EM_0003).toBe(wording);
      expect(saved.body.customised).toEqual(['EM_0003']);
      const row = await t.db.selectFrom('alarm_message_templates').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ code: 'EM_0003', body: wording });
      expect((await listAudit(t.db, 'alarmMessageTemplates.update'))[0]?.details).toEqual({ fields: ['EM_0003'] });
      const reset = await t.call(
        'globalSettings',
        'updateAlarmMessageTemplates',
        { templates: {}, reset: ['EM_0003'] },
        asSupport,
      );
      expect(reset.body.templates.EM_0003).toBe(defaultAlarmMessages.EM_0003);
    });

    it('refuses an empty alarm message and an unknown placeholder', async () => {
      const res = await t.call(
        'globalSettings',
        'updateAlarmMessageTemplates',
        { templates: { EM_0001: '  ', MP_0001: 'Too warm: ${temp}' } },
        asSupport,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'templates.EM_0001', id: 'REQUIRED', message: 'Please enter a value' },
        { path: 'templates.MP_0001', id: 'UNKNOWN_PLACEHOLDER', message: 'Unknown placeholder ${temp}' },
      ]);
    });
  },
  withTestAuth,
);
