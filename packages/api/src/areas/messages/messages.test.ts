import { expect, it } from 'bun:test';
import { messagesPageSize, type OutboxMessage } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, makeReal, seedBusiness, testMachine, withTestAuth } from '../../testing/hub.ts';
import { findMachine, type MachineRecord, recordMachineEvent } from '../machines/index.ts';

const signUpForm = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  email: 'ada@example.com',
  mobileNumber: '07700 900123',
  address: { line1: '1 High Street', line2: null, line3: null, postTown: 'LEEDS', postcode: 'ls1 4ap' },
};

/** The i-th message id: UUIDv7-shaped, so the i-th is newer than every one before it. */
const messageId = (i: number) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`;

describeApi(
  'messages',
  (t) => {
    const list = (input: Record<string, unknown>, as: Record<string, string> = asSupport) =>
      t.call('messages', 'listOutbox', input, as);

    /** `count` messages inserted directly, the i-th with the status `statusOf(i)`. */
    async function queueMany(businessId: string, count: number, statusOf: (i: number) => string = () => 'pending') {
      await t.db
        .insertInto('message_outbox')
        .values(
          Array.from({ length: count }, (_, i) => ({
            id: messageId(i),
            business_id: businessId,
            channel: 'sms' as const,
            recipient: `+4477009${String(i).padStart(5, '0')}`,
            template_key: 'alarm.EM_0003',
            body: `Message ${i}`,
            status: statusOf(i) as 'pending',
            next_attempt_at: i,
            created: i,
            updated: i,
          })),
        )
        .execute();
    }

    it("lists the SMS and email an alarm queued to the business's keyholders, with its wording, pending", async () => {
      await seedBusiness(t.db, 'b1', { mobiles: ['+447700900123'], emails: ['alerts@pharmacy.test'], name: 'High St' });
      const m = await testMachine(t);
      await makeReal(t, m.id);
      const machine = (await findMachine(t.db, m.id)) as MachineRecord;
      await recordMachineEvent(t.db, t.deps, machine, { code: 'EM_0003', created: t.deps.now() });

      const res = await list({ businessId: 'b1' });
      expect(res.status).toBe(200);
      expect(res.body.nextToken).toBeNull();
      const byChannel = [...res.body.messages].sort((a, b) => a.channel.localeCompare(b.channel));
      expect(byChannel).toMatchObject([
        {
          channel: 'email',
          recipient: 'alerts@pharmacy.test',
          templateKey: 'alarm.EM_0003',
          subject: 'Mains power failure: Locker 1',
          status: 'pending',
          attempts: 0,
          lastError: null,
          created: t.deps.now(),
          sentAt: null,
        },
        { channel: 'sms', recipient: '+447700900123', subject: null, status: 'pending' },
      ]);
      for (const message of byChannel) {
        expect(message.body).toContain('There has been a power disruption at Locker 1 at High St');
      }
      // Alarms go to the business's own staff contacts: not a read of anyone's personal data.
      expect(await listAudit(t.db, 'message.list')).toEqual([]);
    });

    it('pages newest first, 50 a page, without repeats, and filters by delivery status', async () => {
      await seedBusiness(t.db);
      await seedBusiness(t.db, 'b2');
      await queueMany('b1', 120, (i) => (i % 10 === 0 ? 'failed' : i % 2 === 0 ? 'success' : 'pending'));
      await t.db
        .insertInto('message_outbox')
        .values({
          id: messageId(999),
          business_id: 'b2',
          channel: 'email',
          recipient: 'other@pharmacy.test',
          template_key: 'alarm.EM_0016',
          body: 'Elsewhere',
          next_attempt_at: 0,
          created: 0,
          updated: 0,
        })
        .execute();

      const seen: OutboxMessage[] = [];
      let nextToken: string | null = null;
      const sizes: number[] = [];
      do {
        const page = await list({ businessId: 'b1', nextToken });
        expect(page.status).toBe(200);
        sizes.push(page.body.messages.length);
        seen.push(...page.body.messages);
        nextToken = page.body.nextToken;
      } while (nextToken);
      expect(sizes).toEqual([messagesPageSize, messagesPageSize, 20]);
      expect(seen.map((m) => m.id)).toEqual(Array.from({ length: 120 }, (_, i) => messageId(119 - i)));

      const failed = await list({ businessId: 'b1', status: 'failed' });
      expect(failed.body.messages.map((m) => m.body)).toEqual(
        [110, 100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0].map((i) => `Message ${i}`),
      );
      const sent = await list({ businessId: 'b1', status: 'success' });
      expect(sent.body.messages).toHaveLength(48);
      expect(sent.body.messages.every((m) => m.status === 'success')).toBe(true);
    });

    it('never returns a sign-up code, and audits the patient-facing messages a page shows, not the alarms', async () => {
      await seedBusiness(t.db, 'b1', { mobiles: ['+447700900999'] });
      const created = await t.call('signUps', 'create', { businessId: 'b1', signUp: signUpForm }, asSupport);
      expect(created.status).toBe(200);
      const m = await testMachine(t);
      await makeReal(t, m.id);
      const machine = (await findMachine(t.db, m.id)) as MachineRecord;
      await recordMachineEvent(t.db, t.deps, machine, { code: 'EM_0016', created: t.deps.now() });

      const res = await list({ businessId: 'b1' });
      expect(res.status).toBe(200);
      const codes = res.body.messages.filter((m) => m.templateKey.startsWith('signUp'));
      expect(codes.map((m) => [m.templateKey, m.recipient, m.body])).toEqual([
        ['signUpMobileCode', '+447700900123', null],
        ['signUpEmailCode', 'ada@example.com', null],
      ]);
      expect(JSON.stringify(res.body)).not.toMatch(/code is \d{6}/);
      expect(codes.find((m) => m.channel === 'email')?.subject).toBe('Your MedLocker sign-up code');
      const alarm = res.body.messages.find((m) => m.templateKey === 'alarm.EM_0016');
      expect(alarm?.body).toContain('post box has been left open');

      // The page is one entry naming the patient-facing messages it showed (not the alarm).
      const reads = await listAudit(t.db, 'message.list');
      expect(reads).toHaveLength(1);
      expect(reads[0]).toMatchObject({ actorUserId: 'u-support', entityType: 'message', entityId: null });
      expect(((reads[0]?.details ?? { ids: [] }) as { ids: string[] }).ids.sort()).toEqual(
        codes.map((m) => m.id).sort(),
      );
      expect(reads[0]?.details).toMatchObject({ via: 'listOutbox', patientIds: [] });
      // Ids only: neither the recipient nor the wording goes into the audit log.
      expect(JSON.stringify(reads)).not.toMatch(/ada@example|07700|\+447700/);
    });

    it('answers 404 for an unknown business and an empty list for a business with no messages', async () => {
      const unknown = await list({ businessId: 'nope' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Business nope not found' });
      await seedBusiness(t.db);
      const empty = await list({ businessId: 'b1' });
      expect(empty.body).toEqual({ messages: [], nextToken: null });
    });

    it('refuses a status outside pending, success and failed, a forged token and a missing business', async () => {
      await seedBusiness(t.db);
      const status = await list({ businessId: 'b1', status: 'sent' });
      expect(status.status).toBe(400);
      expect(status.body.error.details).toEqual([
        { path: 'status', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
      ]);
      const token = await list({ businessId: 'b1', nextToken: 'not-a-token' });
      expect(token.status).toBe(400);
      expect(token.body.error.details?.[0]).toMatchObject({ path: 'nextToken', id: 'INVALID_FORMAT' });
      const missing = await list({});
      expect(missing.status).toBe(400);
      expect(missing.body.error.details?.[0]).toMatchObject({ path: 'businessId', message: 'Field is required' });
    });

    it('is for staff who reach the business', async () => {
      await seedBusiness(t.db);
      await queueMany('b1', 1);
      expect((await list({ businessId: 'b1' }, {})).status).toBe(401);
      // A pharmacy user without a role on b1: not found, as for any business they do not reach.
      expect((await list({ businessId: 'b1' }, { cookie: 'session=pharmacy' })).status).toBe(404);
    });
  },
  withTestAuth,
);
