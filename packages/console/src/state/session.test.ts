import { afterEach, describe, expect, it } from 'bun:test';
import { QueryClient } from '@tanstack/react-query';
import { rpc } from '../api/client.ts';
import {
  getSessionState,
  loadSession,
  logOut,
  type SessionState,
  sessionStarted,
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

/** A fresh cache, as the console's own starts at each page load. */
const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const status = (client: QueryClient) => getSessionState(client).status;
const noticeOf = (client: QueryClient) => {
  const state: SessionState = getSessionState(client);
  return state.status === 'anonymous' ? state.notice : undefined;
};
const supportScope = (client: QueryClient) => {
  const state = getSessionState(client);
  return state.status === 'active' && state.session.scopes.includes('support');
};

describe('session state', () => {
  it('starts signed in when the server has a session', async () => {
    const client = newClient();
    answer(200, session);
    await loadSession(client);
    expect(status(client)).toBe('active');
    expect(supportScope(client)).toBe(true);
  });

  it('treats a first visit without a session as plainly signed out', async () => {
    const client = newClient();
    answer(401, notLoggedIn);
    await loadSession(client);
    expect(status(client)).toBe('anonymous');
    expect(noticeOf(client)).toBeUndefined();
  });

  it('says the session timed out when a check fails after having had one', async () => {
    const client = newClient();
    sessionStarted(session, client);
    answer(401, notLoggedIn);
    await loadSession(client);
    expect(noticeOf(client)).toBe(sessionTimedOutMessage());
  });

  it('ends the session with the timeout message when any call answers 401', async () => {
    const client = newClient();
    const stop = watchAuthFailures(client);
    sessionStarted(session, client);
    answer(401, notLoggedIn);
    await rpc('users', 'getUser', { id: 'u2' }).catch(() => {});
    stop();
    expect(status(client)).toBe('anonymous');
    expect(noticeOf(client)).toBe('Your session has timed out. Please log in again');
  });

  it('keeps the session on a 403 and reads it again at most once in 30 s', async () => {
    const client = newClient();
    let clock = 1_000_000;
    const stop = watchAuthFailures(client, () => clock);
    sessionStarted({ ...session, scopes: ['pharmacy'] }, client);
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
    expect(status(client)).toBe('active');
    expect(calls.filter((c) => c === '/api/auth/session')).toHaveLength(2);
    expect(calls.filter((c) => c === '/api/machines/fleetSummary')).toHaveLength(3);
  });

  it('keeps a logout when a session check started before it answers 401 after it', async () => {
    const client = newClient();
    sessionStarted(session, client);
    let answerCheck: (r: Response) => void = () => {};
    globalThis.fetch = (async (url: string) =>
      String(url).endsWith('/auth/session')
        ? new Promise<Response>((resolve) => {
            answerCheck = resolve;
          })
        : Response.json({ ok: true })) as unknown as typeof fetch;
    const check = loadSession(client);
    await logOut(client);
    answerCheck(Response.json(notLoggedIn, { status: 401 }));
    await check;
    expect(getSessionState(client)).toEqual({ status: 'anonymous', loggedOut: true });
    expect(noticeOf(client)).toBeUndefined();
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
      const first = newClient();
      await loadSession(first);
      expect(status(first)).toBe('anonymous');
      expect(calls).toEqual([]);

      // Signed in: the next load asks and finds the session; after a logout it asks nothing again.
      sessionStarted(session, first);
      const second = newClient();
      await loadSession(second);
      expect(status(second)).toBe('active');
      await logOut(second);
      const third = newClient();
      calls.length = 0;
      await loadSession(third);
      expect(status(third)).toBe('anonymous');
      expect(calls).toEqual([]);
    } finally {
      delete (globalThis as { localStorage?: Storage }).localStorage;
    }
  });

  it('knows a user without the support scope', () => {
    const client = newClient();
    sessionStarted({ ...session, scopes: [] }, client);
    expect(supportScope(client)).toBe(false);
  });

  it("forgets the user's cached server answers on logout, keeping only the console's config", async () => {
    const client = newClient();
    sessionStarted(session, client);
    client.setQueryData(['users', 'getUser', 'u2'], { id: 'u2' });
    client.setQueryData(['auth', 'config'], { allowRegistration: true, productName: 'MedLocker' });
    answer(200, { ok: true });
    await logOut(client);
    expect(client.getQueryData(['users', 'getUser', 'u2'])).toBeUndefined();
    expect(client.getQueryData(['auth', 'config'])).toEqual({ allowRegistration: true, productName: 'MedLocker' });
    expect(getSessionState(client)).toEqual({ status: 'anonymous', loggedOut: true });
  });

  it('shows nothing cached from a session that timed out to whoever logs in next', () => {
    const client = newClient();
    const stop = watchAuthFailures(client);
    sessionStarted(session, client);
    client.setQueryData(['patients', 'list', 'b1'], [{ id: 'p1' }]);
    sessionStarted({ ...session, user: { ...session.user, id: 'u9' } }, client);
    stop();
    expect(client.getQueryData(['patients', 'list', 'b1'])).toBeUndefined();
  });

  it('keeps the session hint when the first check fails for any reason but a 401 (a page left mid-answer)', async () => {
    const stored = new Map<string, string>([['medlocker.session', '1']]);
    globalThis.localStorage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
      removeItem: (k: string) => void stored.delete(k),
    } as Storage;
    try {
      // The answer's body breaks off as it is read, as when the browser leaves the page.
      globalThis.fetch = (async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.error(new TypeError('network error'));
            },
          }),
          { status: 200 },
        )) as unknown as typeof fetch;
      const left = newClient();
      await loadSession(left);
      expect(status(left)).toBe('unreachable');
      expect(stored.get('medlocker.session')).toBe('1');

      // The next page asks again and finds the session.
      answer(200, session);
      const next = newClient();
      await loadSession(next);
      expect(status(next)).toBe('active');

      // A 401 does end it.
      answer(401, notLoggedIn);
      await loadSession(newClient());
      expect(stored.has('medlocker.session')).toBe(false);
    } finally {
      delete (globalThis as { localStorage?: Storage }).localStorage;
    }
  });

  it('reports an unreachable server on the first check, and keeps a session through a later blip', async () => {
    const client = newClient();
    globalThis.fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    await loadSession(client);
    expect(status(client)).toBe('unreachable');

    const signedIn = newClient();
    sessionStarted(session, signedIn);
    await loadSession(signedIn);
    expect(status(signedIn)).toBe('active');
  });
});
