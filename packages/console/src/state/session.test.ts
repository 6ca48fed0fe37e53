import { afterEach, describe, expect, it } from 'bun:test';
import { createStore } from 'jotai';
import { rpc } from '../api/client.ts';
import {
  hasSupportScopeAtom,
  loadSessionAtom,
  logOutAtom,
  sessionAtom,
  sessionNoticeAtom,
  sessionStartedAtom,
  sessionTimedOutMessage,
  watchAuthFailures,
} from './session.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const session = {
  expires: Date.now() + 60_000,
  scopes: ['support'],
  user: {
    id: 'u1',
    email: 'sam@medlocker.test',
    givenName: 'Sam',
    familyName: 'Support',
    name: 'Sam Support',
    created: 0,
    updated: 0,
    accessLevels: [],
  },
};

function answer(status: number, body: unknown) {
  globalThis.fetch = (async () => Response.json(body, { status })) as unknown as typeof fetch;
}

const notLoggedIn = { error: { code: 'UNAUTHENTICATED', message: 'Please log in' } };

describe('session state', () => {
  it('starts signed in when the server has a session', async () => {
    const store = createStore();
    answer(200, session);
    await store.set(loadSessionAtom);
    expect(store.get(sessionAtom).status).toBe('active');
    expect(store.get(hasSupportScopeAtom)).toBe(true);
  });

  it('treats a first visit without a session as plainly signed out', async () => {
    const store = createStore();
    answer(401, notLoggedIn);
    await store.set(loadSessionAtom);
    expect(store.get(sessionAtom).status).toBe('anonymous');
    expect(store.get(sessionNoticeAtom)).toBeUndefined();
  });

  it('says the session timed out when a check fails after having had one', async () => {
    const store = createStore();
    store.set(sessionStartedAtom, session);
    answer(401, notLoggedIn);
    await store.set(loadSessionAtom);
    expect(store.get(sessionNoticeAtom)).toBe(sessionTimedOutMessage);
  });

  it('ends the session with the timeout message when any call answers 401', async () => {
    const store = createStore();
    const stop = watchAuthFailures(store);
    store.set(sessionStartedAtom, session);
    answer(401, notLoggedIn);
    await rpc('users', 'getUser', { id: 'u2' }).catch(() => {});
    stop();
    expect(store.get(sessionAtom).status).toBe('anonymous');
    expect(store.get(sessionNoticeAtom)).toBe('Your session has timed out. Please log in again');
  });

  it('keeps the session on a 403 and reads it again at most once in 30 s', async () => {
    const store = createStore();
    let clock = 1_000_000;
    const stop = watchAuthFailures(store, () => clock);
    store.set(sessionStartedAtom, { ...session, scopes: ['pharmacy'] });
    const calls: string[] = [];
    globalThis.fetch = (async (url: string) => {
      calls.push(new URL(String(url), 'http://console.test').pathname);
      return String(url).endsWith('/auth/session')
        ? Response.json({ ...session, scopes: ['pharmacy'] })
        : Response.json(
            { error: { code: 'FORBIDDEN', message: 'You do not have access to this area' } },
            { status: 403 },
          );
    }) as unknown as typeof fetch;
    await rpc('machines', 'fleetSummary', {}).catch(() => {});
    await rpc('machines', 'fleetSummary', {}).catch(() => {});
    clock += 30_000;
    await rpc('machines', 'fleetSummary', {}).catch(() => {});
    await Bun.sleep(0);
    stop();
    expect(store.get(sessionAtom).status).toBe('active');
    expect(calls.filter((c) => c === '/api/auth/session')).toHaveLength(2);
    expect(calls.filter((c) => c === '/api/machines/fleetSummary')).toHaveLength(3);
  });

  it('keeps a logout when a session check started before it answers 401 after it', async () => {
    const store = createStore();
    store.set(sessionStartedAtom, session);
    let answerCheck: (r: Response) => void = () => {};
    globalThis.fetch = (async (url: string) =>
      String(url).endsWith('/auth/session')
        ? new Promise<Response>((resolve) => {
            answerCheck = resolve;
          })
        : Response.json({ ok: true })) as unknown as typeof fetch;
    const check = store.set(loadSessionAtom);
    await store.set(logOutAtom);
    answerCheck(Response.json(notLoggedIn, { status: 401 }));
    await check;
    expect(store.get(sessionAtom)).toEqual({ status: 'anonymous', loggedOut: true });
    expect(store.get(sessionNoticeAtom)).toBeUndefined();
  });

  it('asks the server nothing on the first load of a browser that never signed in (no 401 logged)', async () => {
    const stored = new Map<string, string>();
    globalThis.localStorage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
      removeItem: (k: string) => void stored.delete(k),
    } as Storage;
    try {
      const calls: string[] = [];
      globalThis.fetch = (async (url: string) => {
        calls.push(String(url));
        return String(url).endsWith('/auth/session') ? Response.json(session) : Response.json({ ok: true });
      }) as unknown as typeof fetch;
      const first = createStore();
      await first.set(loadSessionAtom);
      expect(first.get(sessionAtom).status).toBe('anonymous');
      expect(calls).toEqual([]);

      // Signed in: the next load asks and finds the session; after a logout it asks nothing again.
      first.set(sessionStartedAtom, session);
      const second = createStore();
      await second.set(loadSessionAtom);
      expect(second.get(sessionAtom).status).toBe('active');
      await second.set(logOutAtom);
      const third = createStore();
      calls.length = 0;
      await third.set(loadSessionAtom);
      expect(third.get(sessionAtom).status).toBe('anonymous');
      expect(calls).toEqual([]);
    } finally {
      delete (globalThis as { localStorage?: Storage }).localStorage;
    }
  });

  it('knows a user without the support scope', () => {
    const store = createStore();
    store.set(sessionStartedAtom, { ...session, scopes: [] });
    expect(store.get(hasSupportScopeAtom)).toBe(false);
  });
});
