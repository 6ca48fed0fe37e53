import { expect, it, setDefaultTimeout } from 'bun:test';
import { createApp } from '../app.ts';
import { listAudit } from '../audit/audit.ts';
import type { AuthPort } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { LiveHub, localTransport } from '../live/live.ts';
import { pgTransport } from '../live/pg-transport.ts';
import { silentLogger } from '../log/logger.ts';
import type { MemoryMailer } from '../mail/mailer.ts';
import { describeApi, TEST_ORIGIN } from '../testing/api.ts';
import { cachedAuth } from './session-cache.ts';
import { createSession, createSessionAuth } from './sessions.ts';

// Each login hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

/** The real session auth, counting its database lookups. */
function counted(db: () => AppDeps['db']) {
  const inner = createSessionAuth(db);
  const counter: { lookups: number; during?: () => void } = { lookups: 0 };
  const auth: AuthPort = {
    principalOf: (request, ctx) => {
      counter.lookups++;
      const answer = inner.principalOf(request, ctx);
      // What happens elsewhere while the database answers.
      counter.during?.();
      return answer;
    },
  };
  return { auth, counter };
}

let counter: ReturnType<typeof counted>['counter'] = { lookups: 0 };

describeApi(
  'session cache',
  (t) => {
    const session = (cookie: string) => t.call('auth', 'session', {}, { cookie });
    // A support-only method (a lister like groups/listGroups answers a user without roles an empty page).
    const supportCall = (cookie: string) => t.call('globalSettings', 'getGlobalSettings', {}, { cookie });

    it('looks a session up once for many calls in a row', async () => {
      const { cookie } = await t.signIn({ support: true });
      expect(t.deps.auth).toBeDefined(); // builds this target's app, and its counter
      const before = counter.lookups;
      for (let i = 0; i < 20; i++) expect((await supportCall(cookie)).status).toBe(200);
      expect(counter.lookups - before).toBe(1);
      // A few seconds later the session is looked up again (and its activity recorded).
      t.advance(6_000);
      expect((await supportCall(cookie)).status).toBe(200);
      expect(counter.lookups - before).toBe(2);
    });

    it('refuses the very next call after logout', async () => {
      const { cookie } = await t.signIn({ support: true });
      expect((await session(cookie)).status).toBe(200);
      expect((await t.call('auth', 'logout', {}, { cookie })).status).toBe(200);
      expect((await session(cookie)).status).toBe(401);
      expect((await supportCall(cookie)).status).toBe(401);
    });

    it('refuses a support method the very next call after the Support role is removed', async () => {
      const admin = await t.signIn({ support: true, email: 'admin@medlocker.test' });
      const other = await t.signIn({ support: true, email: 'other@medlocker.test' });
      expect((await supportCall(other.cookie)).status).toBe(200);
      const removed = await t.call(
        'auth',
        'removeRole',
        { userId: other.userId, roleName: 'Support', roleResource: null },
        { cookie: admin.cookie },
      );
      expect(removed.status).toBe(200);
      expect((await supportCall(other.cookie)).status).toBe(403);
      expect((await session(other.cookie)).body.scopes).toEqual([]);
    });

    it('refuses the very next call of every session of a user whose password was reset', async () => {
      const { cookie, email } = await t.signIn({ support: true, email: 'rose@pharmacy.test' });
      expect((await supportCall(cookie)).status).toBe(200);
      await t.call('auth', 'beginResetPassword', { email, frontEnd: 'support' });
      const mail = (t.deps.mailer as MemoryMailer).messages.at(-1);
      const token = decodeURIComponent(/\/auth\/reset#token=([A-Za-z0-9_%-]+)/.exec(mail?.text ?? '')?.[1] ?? '');
      const done = await t.call('auth', 'completeResetPassword', { password: 'a brand new passphrase', token });
      expect(done.status).toBe(200);
      expect((await supportCall(cookie)).status).toBe(401);
    });

    it('refuses the very next call of a session ended from the account page, by its owner or by support', async () => {
      const mine = await t.signIn({ support: true, email: 'sam@medlocker.test' });
      const second = await createSession(t.db, mine.userId, t.deps.now(), { ip: null, userAgent: 'test' });
      const other = { cookie: `medlocker_session=${second.token}` };
      const theirs = await t.signIn({ email: 'pat@pharmacy.test' });
      expect((await supportCall(other.cookie)).status).toBe(200);
      expect((await session(theirs.cookie)).status).toBe(200);
      const listed = await t.call('auth', 'listSessions', {}, { cookie: mine.cookie });
      const otherId = listed.body.sessions.find((s) => !s.current)?.id ?? '';
      expect((await t.call('auth', 'endSession', { sessionId: otherId }, { cookie: mine.cookie })).status).toBe(200);
      expect((await supportCall(other.cookie)).status).toBe(401);
      const listedTheirs = await t.call('auth', 'listSessions', { userId: theirs.userId }, { cookie: mine.cookie });
      const theirId = listedTheirs.body.sessions[0]?.id ?? '';
      expect((await t.call('auth', 'endSession', { sessionId: theirId }, { cookie: mine.cookie })).status).toBe(200);
      expect((await session(theirs.cookie)).status).toBe(401);
      expect((await supportCall(mine.cookie)).status).toBe(200);
    });

    it('names a user by the name they just gave on the very next call, not the one remembered', async () => {
      const me = await t.signIn({ support: true, givenName: '', familyName: '' });
      await supportCall(me.cookie); // remembered under the empty name
      const names = { id: me.userId, givenName: 'Nia', familyName: 'Obi' };
      expect((await t.call('users', 'updateUser', names, { cookie: me.cookie })).status).toBe(200);
      await t.call('users', 'getUser', { id: me.userId }, { cookie: me.cookie });
      const rows = await listAudit(t.db);
      expect(rows.filter((r) => r.action === 'user.read').map((r) => r.actorDisplay)).toEqual(['Nia Obi']);
    });

    it('keeps no answer read before a change that arrived while it was being read', async () => {
      const { cookie, userId } = await t.signIn({ support: true });
      const live = t.deps.live as LiveHub; // builds this target's app, and its counter
      const before = counter.lookups;
      counter.during = () => live.accessChanged(userId);
      expect((await supportCall(cookie)).status).toBe(200);
      counter.during = undefined;
      await supportCall(cookie);
      expect(counter.lookups - before).toBe(2);
    });

    if (process.env.TEST_DATABASE_URL) {
      it('refuses a session logged out on another api process, as soon as that process hears of it', async () => {
        if (t.kind !== 'postgres') return;
        const url = process.env.TEST_DATABASE_URL as string;
        const instance = async () => {
          const live = new LiveHub(await pgTransport(url, silentLogger), silentLogger);
          const { auth, counter } = counted(() => t.db);
          const deps: AppDeps = { ...t.deps, live, auth: cachedAuth(auth, live) };
          const app = createApp(deps);
          const call = async (method: string, cookie: string) =>
            (
              await app.handle(
                new Request(`${TEST_ORIGIN}/api/auth/${method}`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie },
                  body: '{}',
                }),
              )
            ).status;
          return { live, call, counter };
        };
        const a = await instance();
        const b = await instance();
        try {
          const { cookie } = await t.signIn({ support: true });
          expect(await b.call('session', cookie)).toBe(200);
          expect(await b.call('session', cookie)).toBe(200);
          expect(b.counter.lookups).toBe(1);
          expect(await a.call('logout', cookie)).toBe(200);
          expect(await a.call('session', cookie)).toBe(401);
          const until = Date.now() + 2_000;
          let status = await b.call('session', cookie);
          while (status === 200 && Date.now() < until) {
            await Bun.sleep(5);
            status = await b.call('session', cookie);
          }
          expect(status).toBe(401);
        } finally {
          await a.live.close();
          await b.live.close();
        }
      });
    }
  },
  (base) => {
    const live = new LiveHub(localTransport(), silentLogger);
    const made = counted(() => base.db);
    counter = made.counter;
    return { live, auth: cachedAuth(made.auth, live) };
  },
);
