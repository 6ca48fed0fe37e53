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

  it('knows a user without the support scope', () => {
    const store = createStore();
    store.set(sessionStartedAtom, { ...session, scopes: [] });
    expect(store.get(hasSupportScopeAtom)).toBe(false);
  });
});
