import { afterAll, beforeAll, beforeEach, expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { type MailCatcher, startMailCatcher } from '../../mail/mail-catcher.ts';
import { createSmtpMailer } from '../../mail/mailer.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, testAuth } from '../../testing/hub.ts';
import { octoberCsv, octoberEstate, storeMonthlyRows } from '../../testing/monthly-email.ts';

/*
 * reports/sendMonthlyEmail (issue 21) at a real SMTP server: the test clock starts on 2 November 2026,
 * so "last month" is October 2026.
 */

// Each sign-in hashes with argon2id.
setDefaultTimeout(30_000);

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher.stop();
});
beforeEach(() => catcher.clear());

describeApi(
  'reports: the monthly report email, sent by staff',
  (t) => {
    const send = (input: Record<string, unknown>, as: { cookie?: string } = asSupport) =>
      t.call('reports', 'sendMonthlyEmail', input, as);

    async function estate() {
      const id = Bun.randomUUIDv7();
      await seedBusiness(t.db, id, {
        name: 'High St Pharmacy',
        emails: ['owner@pharmacy.test', 'manager@pharmacy.test'],
      });
      await storeMonthlyRows(t.db, id, octoberEstate);
      return id;
    }

    it('emails last month’s figures to the notification emails, with the CSV of it and the 12 months before', async () => {
      const businessId = await estate();
      const res = await send({ businessId });
      expect([res.status, res.body]).toEqual([
        200,
        { year: 2026, month: 10, sentTo: ['owner@pharmacy.test', 'manager@pharmacy.test'] },
      ]);
      const mail = await catcher.waitFor('owner@pharmacy.test');
      expect(mail.to).toEqual(['owner@pharmacy.test', 'manager@pharmacy.test']);
      expect(mail.subject).toBe('MedLocker monthly report: High St Pharmacy, October 2026');
      expect(mail.attachments).toEqual([
        { filename: 'monthly-report-high-st-pharmacy-2026-10.csv', contentType: 'text/csv', content: octoberCsv },
      ]);
      // SPEC §9 for people: pounds with 2 decimals, hours up to 48 hours then days; the month before beside.
      const lines = mail.text.split('\n');
      for (const line of [
        'High St Pharmacy: MedLocker monthly report for October 2026',
        '  Collected: 9 (8 within the window) (September 2026: 7 (7 within the window))',
        '  Median: 3.5 hours (September 2026: 1 hour)',
        '  Total: 2.1 days (September 2026: 7 hours)',
        '  Paid by card: £23.80 (September 2026: £1,234.56)',
        '  Exemptions declared: 3 (A 1; F 2) (September 2026: 0)',
        '  Sent: 20 (email 5, SMS 15) (September 2026: 0)',
        '  Failed: 1 (SMS 1) (September 2026: 0)',
        '  Downtime: 0.8 hours (September 2026: 0 hours)',
        '  Alarms: 3 (EM_0001 2; EM_0003 1) (September 2026: 0)',
        '  Change during the month: +5 (September 2026: -2)',
      ])
        expect(lines).toContain(line);
      expect(mail.html).toContain('<h1 style="font-size:20px">High St Pharmacy: monthly report for October 2026</h1>');
      expect(mail.html).toContain('£1,234.56');
      // One message to both.
      expect(catcher.messages).toHaveLength(1);
      // Audited, as every manual send (a resend) is.
      const [entry] = await listAudit(t.db, 'report.monthlyEmail.sent');
      expect(entry).toMatchObject({
        entityType: 'business',
        entityId: businessId,
        actorUserId: 'u-support',
        details: { year: 2026, month: 10, recipients: ['owner@pharmacy.test', 'manager@pharmacy.test'], via: 'manual' },
      });
    });

    it('sends a chosen month, this month so far included, and again whenever asked', async () => {
      const businessId = await estate();
      const september = await send({ businessId, year: 2026, month: 9 });
      expect(september.body).toMatchObject({ year: 2026, month: 9 });
      const mail = await catcher.waitFor('owner@pharmacy.test');
      expect(mail.subject).toBe('MedLocker monthly report: High St Pharmacy, September 2026');
      expect(mail.attachments[0]?.content.split('\r\n').slice(1, 2)).toEqual([
        '"2025-09",99,0,0,0,0,0,0,,0,0.00,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,0,0',
      ]);
      expect((await send({ businessId, year: 2026, month: 11 })).status).toBe(200);
      expect((await send({ businessId, year: 2026, month: 11 })).status).toBe(200);
      expect(catcher.messages).toHaveLength(3);
      expect(await listAudit(t.db, 'report.monthlyEmail.sent')).toHaveLength(3);
    });

    it('folds in what the stats job has not yet: the reported month is recomputed first', async () => {
      const businessId = Bun.randomUUIDv7();
      await seedBusiness(t.db, businessId, { name: 'Late Pharmacy', emails: ['late@pharmacy.test'] });
      await t.db
        .insertInto('machines')
        .values({
          id: `m-${businessId}`,
          business_id: businessId,
          name: 'Front',
          number_of_slots: 12,
          created: 1,
          updated: 1,
        })
        .execute();
      // An alarm on 20 October the stats.monthly job has not run since.
      await t.db
        .insertInto('machine_events')
        .values({
          id: Bun.randomUUIDv7(),
          business_id: businessId,
          machine_id: `m-${businessId}`,
          code: 'EM_0001',
          level: 'error',
          created: Date.parse('2026-10-20T10:00:00Z'),
        })
        .execute();
      expect((await send({ businessId })).status).toBe(200);
      const mail = await catcher.waitFor('late@pharmacy.test');
      expect(mail.text.split('\n')).toContain('  Alarms: 1 (EM_0001 1) (September 2026: 0)');
    });

    it('refuses a business without notification emails with 409, and sends nothing', async () => {
      const businessId = await seedBusiness(t.db, Bun.randomUUIDv7());
      const res = await send({ businessId });
      expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
        409,
        'CONFLICT',
        [{ path: 'businessId', id: 'NO_NOTIFICATION_EMAILS', message: 'No notification emails' }],
      ]);
      expect(res.body.error.message).toContain('no notification emails');
      expect(catcher.messages).toHaveLength(0);
      expect(await listAudit(t.db, 'report.monthlyEmail.sent')).toHaveLength(0);
    });

    it('refuses bad input with 400, an unknown business with 404, and sends nothing', async () => {
      const businessId = await estate();
      for (const bad of [
        { businessId, year: 2026 },
        { businessId, month: 10 },
        { businessId, year: 2026, month: 13 },
        { businessId, year: 2026, month: 0 },
        { businessId, year: 1999, month: 12 },
        { businessId, year: 2026, month: 10.5 },
        { businessId, year: '2026', month: 10 },
        { businessId, year: 2026, month: 12 },
        { businessId, year: 2027, month: 1 },
        { businessId, to: 'someone@else.test' },
        {},
      ]) {
        const res = await send(bad);
        expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'VALIDATION']);
      }
      expect((await send({ businessId: Bun.randomUUIDv7() })).status).toBe(404);
      expect(catcher.messages).toHaveLength(0);
    });

    it('is for support and the pharmacy admins of the business; another business is 404', async () => {
      const businessId = await estate();
      const other = await estate();
      const admin = await t.signIn({
        roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] }],
      });
      const member = await t.signIn({
        roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }],
      });
      expect((await send({ businessId }, admin)).status).toBe(200);
      expect((await send({ businessId }, member)).status).toBe(403);
      const foreign = await send({ businessId: other }, admin);
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
      expect((await send({ businessId }, {})).status).toBe(401);
      expect(catcher.messages).toHaveLength(1);
      const [entry] = await listAudit(t.db, 'report.monthlyEmail.sent');
      expect(entry?.actorUserId).toBe(admin.userId);
    });

    it('answers 503 when the mail server is down, and audits nothing', async () => {
      const businessId = await estate();
      const down = await t.call('reports', 'sendMonthlyEmail', { businessId, year: 2026, month: 10 }, asSupport);
      expect(down.status).toBe(200);
      await catcher.stop();
      try {
        const res = await send({ businessId });
        expect([res.status, res.body.error.code]).toEqual([503, 'UNAVAILABLE']);
        expect(await listAudit(t.db, 'report.monthlyEmail.sent')).toHaveLength(1);
      } finally {
        catcher = await startMailCatcher();
      }
    });
  },
  (base) => ({
    auth: {
      principalOf: async (request, ...rest) =>
        (await testAuth.principalOf(request, ...rest)) ?? base.auth.principalOf(request, ...rest),
    },
    // The catcher's address is read at each send: the last test restarts it on another port.
    mailer: { send: (message) => createSmtpMailer(catcher.url, 'MedLocker <reports@medlocker.test>').send(message) },
  }),
);
