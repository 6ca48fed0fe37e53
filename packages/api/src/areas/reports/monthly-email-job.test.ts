import { afterAll, beforeAll, beforeEach, expect, it } from 'bun:test';
import { jobHandlers, jobSchedules } from '../../job-handlers.ts';
import { createRunner, type Runner } from '../../jobs/runner.ts';
import { nextRunAt } from '../../jobs/schedule.ts';
import { type MailCatcher, startMailCatcher } from '../../mail/mail-catcher.ts';
import { createSmtpMailer, type Mailer } from '../../mail/mailer.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { seedBusiness } from '../../testing/hub.ts';
import { octoberCsv, octoberEstate, storeMonthlyRows } from '../../testing/monthly-email.ts';
import {
  HAND_OVER_IN_FLIGHT_MS,
  MONTHLY_EMAIL_JOB,
  MONTHLY_EMAILS_JOB,
  queueMonthlyEmails,
  sendScheduledMonthlyEmail,
} from './monthly-email.ts';
import { readSendLog } from './monthly-email-repository.ts';

/*
 * The scheduled monthly report (issue 21): on the 1st of each London month, once per active business
 * with notification emails, exactly once however many runners, retries and crashes.
 */

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher.stop());
beforeEach(() => catcher.clear());

/** The SMTP mailer at the catcher, refusing the next `failures` sends as a mail server that is down would. */
const smtp = { failures: 0 };
const mailer: Mailer = {
  send: async (message) => {
    if (smtp.failures > 0) {
      smtp.failures -= 1;
      throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    }
    await createSmtpMailer(catcher.url, 'MedLocker <reports@medlocker.test>').send(message);
  },
};
beforeEach(() => {
  smtp.failures = 0;
});

const at = (t: TestApi, moment: string) => t.advance(Date.parse(moment) - t.deps.now());
const to = (address: string) => catcher.messages.filter((m) => m.to.includes(address));
/** The Message-ID header of a caught mail (unfolded). */
const messageIdOf = (raw: string | undefined) =>
  /\nMessage-ID:\s*(<[^>]+>)/i.exec(raw?.replace(/\r\n[ \t]+/g, ' ') ?? '')?.[1];

describeApi(
  'reports: the scheduled monthly report email',
  (t) => {
    /** A runner of the report's two jobs and its schedule only, on the test clock. */
    const runnerOf = () => {
      const { [MONTHLY_EMAILS_JOB]: queue, [MONTHLY_EMAIL_JOB]: send } = jobHandlers(t.deps);
      if (!queue || !send) throw new Error('the monthly report jobs have no handlers');
      return createRunner({
        db: t.db,
        logger: t.deps.logger,
        now: t.deps.now,
        handlers: { [MONTHLY_EMAILS_JOB]: queue, [MONTHLY_EMAIL_JOB]: send },
        schedules: jobSchedules.filter((s) => s.name === MONTHLY_EMAILS_JOB),
        baseDelayMs: 1_000,
        random: () => 0,
      });
    };
    const drain = async (...runners: Runner[]) => {
      for (let i = 0; i < 3; i++) {
        await Promise.all(runners.map((r) => r.tick()));
        await Promise.all(runners.map((r) => r.idle()));
      }
    };
    const business = async (extra: { emails?: string[]; archived?: boolean } = {}) => {
      const id = await seedBusiness(t.db, Bun.randomUUIDv7(), { name: 'High St Pharmacy', emails: extra.emails ?? [] });
      if (extra.archived)
        await t.db
          .updateTable('businesses')
          .set({ archived_at: 1, archived_by_display: 'Sam' })
          .where('id', '=', id)
          .execute();
      return id;
    };
    const jobsOf = (type: string) =>
      t.db.selectFrom('jobs').select(['business_id', 'payload', 'status']).where('type', '=', type).execute();
    const noSchedulesYet = () => t.db.deleteFrom('job_schedules').execute();

    it('fires at 06:00 London on the 1st: GMT after the clocks went back, BST after they went forward', () => {
      // 1 November 2026: BST ended on 25 October, so 06:00 London is 06:00 UTC.
      expect(new Date(nextRunAt('0 6 1 * *', Date.parse('2026-10-31T23:59:00Z'))).toISOString()).toBe(
        '2026-11-01T06:00:00.000Z',
      );
      // 1 April 2026: BST began on 29 March, so 06:00 London is 05:00 UTC.
      expect(new Date(nextRunAt('0 6 1 * *', Date.parse('2026-03-31T23:00:00Z'))).toISOString()).toBe(
        '2026-04-01T05:00:00.000Z',
      );
    });

    it('on 1 November (GMT again) sends each business October’s report once, with its CSV', async () => {
      await noSchedulesYet();
      const id = await business({ emails: ['owner@pharmacy.test'] });
      await storeMonthlyRows(t.db, id, octoberEstate);
      const runner = runnerOf();
      at(t, '2026-10-31T12:00:00Z');
      await drain(runner);
      // 05:59:59 UTC is 05:59:59 London in November: not yet.
      at(t, '2026-11-01T05:59:59Z');
      await drain(runner);
      expect(await jobsOf(MONTHLY_EMAILS_JOB)).toEqual([]);
      at(t, '2026-11-01T06:00:00Z');
      await drain(runner);
      expect(await jobsOf(MONTHLY_EMAIL_JOB)).toEqual([
        { business_id: id, payload: { businessId: id, year: 2026, month: 10 }, status: 'done' },
      ]);
      const [mail] = to('owner@pharmacy.test');
      expect(mail?.subject).toBe('MedLocker monthly report: High St Pharmacy, October 2026');
      expect(mail?.attachments.map((a) => a.content)).toEqual([octoberCsv]);
      expect(messageIdOf(mail?.raw)).toBe(`<monthly-report.${id}.2026-10@medlocker.test>`);
      expect(await readSendLog(t.db, { businessId: id, year: 2026, month: 10 })).toMatchObject({
        status: 'sent',
        recipients: ['owner@pharmacy.test'],
        crash_resends: 0,
      });
      // The rest of the day, and a schedule run again by hand: nothing more.
      at(t, '2026-11-01T18:00:00Z');
      await drain(runner);
      expect(await queueMonthlyEmails(t.deps)).toBe(1);
      await drain(runner);
      expect(to('owner@pharmacy.test')).toHaveLength(1);
    });

    it('on 1 April (BST) fires at 05:00 UTC for March', async () => {
      await noSchedulesYet();
      const id = await business({ emails: ['spring@pharmacy.test'] });
      const runner = runnerOf();
      at(t, '2026-03-31T22:00:00Z');
      await drain(runner);
      at(t, '2026-04-01T04:59:59Z');
      await drain(runner);
      expect(to('spring@pharmacy.test')).toHaveLength(0);
      at(t, '2026-04-01T05:00:00Z');
      await drain(runner);
      expect(to('spring@pharmacy.test').map((m) => m.subject)).toEqual([
        'MedLocker monthly report: High St Pharmacy, March 2026',
      ]);
      expect(await readSendLog(t.db, { businessId: id, year: 2026, month: 3 })).toMatchObject({ status: 'sent' });
    });

    it('skips archived businesses and those without notification emails', async () => {
      at(t, '2026-11-01T06:00:00Z');
      const active = await business({ emails: ['active@pharmacy.test'] });
      await business({ emails: ['archived@pharmacy.test'], archived: true });
      await business();
      const late = await business({ emails: ['late@pharmacy.test'] });
      expect(await queueMonthlyEmails(t.deps)).toBe(2);
      expect((await jobsOf(MONTHLY_EMAIL_JOB)).map((j) => j.business_id).sort()).toEqual([active, late].sort());
      // Archived after its job was queued: skipped, nothing claimed.
      await t.db.updateTable('businesses').set({ archived_at: 1 }).where('id', '=', late).execute();
      await drain(runnerOf());
      expect(catcher.messages.flatMap((m) => m.to)).toEqual(['active@pharmacy.test']);
      expect(await readSendLog(t.db, { businessId: late, year: 2026, month: 10 })).toBeUndefined();
    });

    it('sends once with two runners taking duplicate jobs of the same business and month at once', async () => {
      at(t, '2026-11-01T06:00:00Z');
      const id = await business({ emails: ['twice@pharmacy.test'] });
      // Two jobs for one (business, month): a schedule queued twice, or by hand, while both wait.
      for (const key of ['a', 'b', 'c'])
        await t.db
          .insertInto('jobs')
          .values({
            id: Bun.randomUUIDv7(),
            type: MONTHLY_EMAIL_JOB,
            business_id: id,
            payload: JSON.stringify({ businessId: id, year: 2026, month: 10 }),
            max_attempts: 10,
            run_after: t.deps.now(),
            dedupe_key: `duplicate-${key}`,
            created: t.deps.now(),
            updated: t.deps.now(),
          })
          .execute();
      const one = runnerOf();
      const two = runnerOf();
      await drain(one, two);
      // A job that met another's hand-over still in flight tries again later, then finds it sent.
      t.advance(HAND_OVER_IN_FLIGHT_MS);
      await drain(one, two);
      expect(to('twice@pharmacy.test')).toHaveLength(1);
      expect((await jobsOf(MONTHLY_EMAIL_JOB)).map((j) => j.status)).toEqual(['done', 'done', 'done']);
    });

    it('retries a send the mail server refused, and sends it once', async () => {
      at(t, '2026-11-01T06:00:00Z');
      const id = await business({ emails: ['retry@pharmacy.test'] });
      smtp.failures = 2;
      await queueMonthlyEmails(t.deps);
      const runner = runnerOf();
      for (let i = 0; i < 4; i++) {
        await drain(runner);
        t.advance(10_000);
      }
      expect(to('retry@pharmacy.test')).toHaveLength(1);
      const [job] = await t.db
        .selectFrom('jobs')
        .select(['attempts', 'status'])
        .where('type', '=', MONTHLY_EMAIL_JOB)
        .execute();
      expect(job).toEqual({ attempts: 3, status: 'done' });
      expect(await readSendLog(t.db, { businessId: id, year: 2026, month: 10 })).toMatchObject({
        status: 'sent',
        crash_resends: 0,
      });
    });

    it('after a crash during the hand-over sends once more with the same Message-ID, and never a third time', async () => {
      at(t, '2026-11-01T06:00:00Z');
      const id = await business({ emails: ['crash@pharmacy.test'] });
      const key = { businessId: id, year: 2026, month: 10 };
      const payload = { ...key };
      const complete = async () => {};
      // A worker committed its hand-over mark and died: the SMTP server may have taken the mail.
      await t.db
        .insertInto('monthly_report_sends')
        .values({
          business_id: id,
          year: 2026,
          month: 10,
          claimed_at: t.deps.now(),
          handed_over_at: t.deps.now(),
          message_id: `<monthly-report.${id}.2026-10@medlocker.test>`,
          updated: t.deps.now(),
        })
        .execute();
      // Within the in-flight window it may still be that worker's conversation: wait, send nothing.
      t.advance(60_000);
      await expect(sendScheduledMonthlyEmail(t.deps, { complete }, payload)).rejects.toThrow('trying again later');
      expect(to('crash@pharmacy.test')).toHaveLength(0);
      // Past it: sent once more (the documented double send), with the same Message-ID.
      t.advance(HAND_OVER_IN_FLIGHT_MS);
      expect(await sendScheduledMonthlyEmail(t.deps, { complete }, payload)).toBe('sent');
      expect(messageIdOf(to('crash@pharmacy.test')[0]?.raw)).toBe(`<monthly-report.${id}.2026-10@medlocker.test>`);
      expect(await readSendLog(t.db, key)).toMatchObject({ status: 'sent', crash_resends: 1 });
      expect(await sendScheduledMonthlyEmail(t.deps, { complete }, payload)).toBe('already-sent');

      // That resend crashed too: unconfirmed, no third copy.
      await t.db
        .updateTable('monthly_report_sends')
        .set({ status: 'sending', handed_over_at: t.deps.now() })
        .where('business_id', '=', id)
        .execute();
      t.advance(HAND_OVER_IN_FLIGHT_MS);
      expect(await sendScheduledMonthlyEmail(t.deps, { complete }, payload)).toBe('unconfirmed');
      expect(await sendScheduledMonthlyEmail(t.deps, { complete }, payload)).toBe('already-sent');
      expect(to('crash@pharmacy.test')).toHaveLength(1);
      expect(await readSendLog(t.db, key)).toMatchObject({ status: 'unconfirmed', crash_resends: 1 });
    });
  },
  () => ({ mailer }),
);
