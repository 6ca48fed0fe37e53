import { expect, it } from 'bun:test';
import { notificationsPageSize } from '@medlocker/core';
import { jobHandlers } from '../../job-handlers.ts';
import { createRunner } from '../../jobs/runner.ts';
import { localMailboxOf } from '../../mail/mailer.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { seedBusiness } from '../../testing/hub.ts';
import { queueDailyDigests } from './service.ts';

/** The i-th notification id: UUIDv7-shaped, so the i-th is newer than every one before it. */
const nid = (i: number) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`;

async function raise(t: TestApi, businessId: string, from: number, count = 1, userId: string | null = null) {
  await t.db
    .insertInto('notifications')
    .values(
      Array.from({ length: count }, (_, k) => ({
        id: nid(from + k),
        business_id: businessId,
        user_id: userId,
        level: 'critical' as const,
        title: `Door open: Locker ${from + k}`,
        body: `The door of Locker ${from + k} is open`,
        details: JSON.stringify({ machineName: `Locker ${from + k}`, code: 'EM_0016' }),
        created: 1_000 + from + k,
        updated: 1_000 + from + k,
      })),
    )
    .execute();
}

describeApi('notifications', (t) => {
  const pharmacist = (businessId: string) =>
    t.signIn({
      givenName: 'Pat',
      familyName: 'Pharm',
      roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }],
    });

  it("shows a pharmacy user only their businesses' notifications, newest first, and support all of them", async () => {
    await seedBusiness(t.db, 'b1', { name: 'High St' });
    await seedBusiness(t.db, 'b2', { name: 'Low St' });
    await raise(t, 'b1', 1, 2);
    await raise(t, 'b2', 3, 1);
    const pat = await pharmacist('b1');
    const support = await t.signIn({ support: true });

    const mine = await t.call('notifications', 'list', {}, pat);
    expect(mine.status).toBe(200);
    expect(mine.body.notifications.map((n) => n.id)).toEqual([nid(2), nid(1)]);
    expect(mine.body.notifications[0]).toMatchObject({ businessName: 'High St', dismissed: null, level: 'critical' });
    expect((await t.call('notifications', 'count', {}, pat)).body).toEqual({ count: 2 });

    const all = await t.call('notifications', 'list', {}, support);
    expect(all.body.notifications.map((n) => n.id)).toEqual([nid(3), nid(2), nid(1)]);
    expect((await t.call('notifications', 'count', {}, support)).body).toEqual({ count: 3 });

    // Another business, named outright: the same 404 as one that does not exist.
    const other = await t.call('notifications', 'list', { businessId: 'b2' }, pat);
    expect(other.status).toBe(404);
    const dismissOther = await t.call('notifications', 'dismiss', { id: nid(3) }, pat);
    expect(dismissOther.status).toBe(404);
    expect((await t.call('notifications', 'dismissAll', { businessId: 'b2' }, pat)).status).toBe(404);
    expect((await t.call('notifications', 'count', {}, support)).body).toEqual({ count: 3 });
  });

  it('a notification addressed to one user is theirs alone; a user with no roles sees nothing', async () => {
    await seedBusiness(t.db, 'b1');
    const pat = await pharmacist('b1');
    const colleague = await pharmacist('b1');
    await raise(t, 'b1', 1, 1, pat.userId);
    await raise(t, 'b1', 2, 1);
    expect((await t.call('notifications', 'count', {}, pat)).body.count).toBe(2);
    expect((await t.call('notifications', 'count', {}, colleague)).body.count).toBe(1);
    const nobody = await t.signIn();
    expect((await t.call('notifications', 'list', {}, nobody)).body.notifications).toEqual([]);
    expect((await t.call('notifications', 'count', {}, nobody)).body.count).toBe(0);
  });

  it("dismissal is the caller's own: one dismiss, then dismiss all, leave a colleague's bell as it was", async () => {
    await seedBusiness(t.db, 'b1');
    await raise(t, 'b1', 1, 3);
    const pat = await pharmacist('b1');
    const colleague = await pharmacist('b1');

    const one = await t.call('notifications', 'dismiss', { id: nid(2) }, pat);
    expect(one.status).toBe(200);
    expect(one.body.notification.dismissed).toEqual({
      dismissedAt: t.deps.now(),
      dismissedBy: pat.userId,
      dismissedByDisplayName: 'Pat Pharm',
      inBulk: false,
    });
    // Again: still dismissed once, as it first was.
    t.advance(1000);
    const again = await t.call('notifications', 'dismiss', { id: nid(2) }, pat);
    expect(again.body.notification.dismissed?.dismissedAt).toBe(one.body.notification.dismissed?.dismissedAt);
    expect((await t.call('notifications', 'count', {}, pat)).body.count).toBe(2);
    const unread = await t.call('notifications', 'list', { unreadOnly: true }, pat);
    expect(unread.body.notifications.map((n) => n.id)).toEqual([nid(3), nid(1)]);

    const all = await t.call('notifications', 'dismissAll', {}, pat);
    expect(all.body).toEqual({ dismissed: 2 });
    expect((await t.call('notifications', 'count', {}, pat)).body.count).toBe(0);
    const listed = await t.call('notifications', 'list', {}, pat);
    expect(listed.body.notifications.map((n) => n.dismissed?.inBulk)).toEqual([true, false, true]);
    expect((await t.call('notifications', 'count', {}, colleague)).body.count).toBe(3);
    expect((await t.call('notifications', 'dismiss', { id: 'no-such-id' }, pat)).status).toBe(404);
  });

  it('pages 25 at a time without repeats; a forged token is a 400', async () => {
    await seedBusiness(t.db, 'b1');
    await raise(t, 'b1', 1, notificationsPageSize + 3);
    const support = await t.signIn({ support: true });
    const first = await t.call('notifications', 'list', {}, support);
    expect(first.body.notifications).toHaveLength(notificationsPageSize);
    const second = await t.call('notifications', 'list', { nextToken: first.body.nextToken }, support);
    expect(second.body.notifications.map((n) => n.id)).toEqual([nid(3), nid(2), nid(1)]);
    expect(second.body.nextToken).toBeNull();
    expect((await t.call('notifications', 'list', { nextToken: 'not a token' }, support)).status).toBe(400);
  });

  it('emails the caller a digest of what they have not dismissed, and nothing when that is nothing', async () => {
    await seedBusiness(t.db, 'b1', { name: 'High St' });
    await seedBusiness(t.db, 'b2', { name: 'Low St' });
    await raise(t, 'b1', 1, 2);
    await raise(t, 'b2', 3, 1);
    const pat = await pharmacist('b1');
    const mailbox = localMailboxOf(t.deps.mailer);
    if (!mailbox) throw new Error('the tests use the memory mailer');

    const res = await t.call('notifications', 'sendUnreadNotificationsEmail', {}, pat);
    expect(res.body).toEqual({ sent: true, count: 2 });
    const mail = mailbox.messages.at(-1);
    expect(mail?.to).toBe(pat.email);
    expect(mail?.subject).toBe('MedLocker: 2 unread notifications');
    expect(mail?.text).toContain('High St · Door open: Locker 2');
    expect(mail?.text).not.toContain('Low St');
    expect(mail?.text).toContain('http://medlocker.test/notifications');

    await t.call('notifications', 'dismissAll', {}, pat);
    const sentBefore = mailbox.messages.length;
    expect((await t.call('notifications', 'sendUnreadNotificationsEmail', {}, pat)).body).toEqual({
      sent: false,
      count: 0,
    });
    expect(mailbox.messages.length).toBe(sentBefore);

    // The daily job: support (all three unread) and the other business's pharmacist; pat has none left.
    const support = await t.signIn({ support: true });
    const other = await pharmacist('b2');
    // One job per person with a role (queued once a day however often the schedule runs), each mailing
    // only if that person has unread notifications.
    const people = await queueDailyDigests(t.deps);
    expect(people).toBeGreaterThanOrEqual(3);
    expect(await queueDailyDigests(t.deps)).toBe(0);
    const runner = createRunner({ db: t.db, logger: t.deps.logger, now: t.deps.now, handlers: jobHandlers(t.deps) });
    await runner.tick();
    await runner.idle();
    await runner.stop(100);
    const recipients = mailbox.messages.slice(sentBefore).map((m) => [m.to, m.subject]);
    expect(recipients.sort()).toEqual(
      [
        [support.email, 'MedLocker: 3 unread notifications'],
        [other.email, 'MedLocker: 1 unread notification'],
      ].sort(),
    );
  });
});
