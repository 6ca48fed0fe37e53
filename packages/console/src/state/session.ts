import type { SessionInfo } from '@medlocker/core';
import { useQuery } from '@tanstack/react-query';
import { atom, type createStore } from 'jotai';
import { ApiError, onAuthFailure, rpc, setProductName } from '../api/client.ts';
import { queryClient } from '../api/queries.ts';
import { onLivePush, onLiveSessionEnded } from './live.ts';

/** SPEC §4/§8: the message the login page shows after a session ended by itself. */
export const sessionTimedOutMessage = 'Your session has timed out. Please log in again';

export type ConsoleConfig = { allowRegistration: boolean; productName: string };

type SessionState =
  | { status: 'loading' }
  /**
   * Not signed in. `notice` is shown on the login page (e.g. the session timed out); `loggedOut` when
   * the user chose to log out, so no page is remembered to come back to.
   */
  | { status: 'anonymous'; notice?: string; loggedOut?: true }
  | { status: 'active'; session: SessionInfo }
  /** The server did not answer the first session check. */
  | { status: 'unreachable'; message: string };

const baseSessionStateAtom = atom<SessionState>({ status: 'loading' });

/**
 * Whether this browser may hold a session cookie (the cookie is HttpOnly, so the console cannot see
 * it). Without the hint the first load asks nothing and shows the login page: a new visitor's browser
 * console stays free of a 401 for auth.session. It is set when a session starts or is found (and
 * before leaving for an identity provider, which sets the cookie on the way back) and cleared when
 * the session ends. Without localStorage the console always asks, as before.
 */
const sessionHintKey = 'medlocker.session';

export function hasSessionHint(): boolean {
  try {
    return globalThis.localStorage === undefined || localStorage.getItem(sessionHintKey) === '1';
  } catch {
    return true;
  }
}

export function rememberSessionHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(sessionHintKey, '1');
    else localStorage.removeItem(sessionHintKey);
  } catch {
    // Storage refused (private mode, quota): the console asks the server on every load.
  }
}

/** The session state; writing it keeps the hint in step (active: set; anonymous: cleared). */
const sessionStateAtom = atom(
  (get) => get(baseSessionStateAtom),
  (_get, set, state: SessionState) => {
    if (state.status === 'active') rememberSessionHint(true);
    else if (state.status === 'anonymous') rememberSessionHint(false);
    set(baseSessionStateAtom, state);
  },
);

/** Where the session stands; the route guards read it. */
export const sessionAtom = atom((get) => get(sessionStateAtom));

/** The signed-in user, or null. */
export const currentUserAtom = atom((get) => {
  const state = get(sessionStateAtom);
  return state.status === 'active' ? state.session.user : null;
});

/** Whether the signed-in user may use the support console (SPEC §1: only the support scope). */
export const hasSupportScopeAtom = atom((get) => {
  const state = get(sessionStateAtom);
  return state.status === 'active' && state.session.scopes.includes('support');
});

/**
 * Who the server takes the user for (core's ActorKind): `support` with the support scope, any other
 * signed-in user `pharmacy`, else `anonymous`. Actions are shown by the contract's access for it
 * (state/access.ts).
 */
export const actorKindAtom = atom((get): 'support' | 'pharmacy' | 'anonymous' => {
  const state = get(sessionStateAtom);
  if (state.status !== 'active') return 'anonymous';
  return state.session.scopes.includes('support') ? 'support' : 'pharmacy';
});

/** The message for the login page, if the last session ended by itself. */
export const sessionNoticeAtom = atom((get) => {
  const state = get(sessionStateAtom);
  return state.status === 'anonymous' ? state.notice : undefined;
});

const defaultConfig: ConsoleConfig = { allowRegistration: false, productName: 'MedLocker' };

/** Where auth.config is cached (server state: TanStack Query, api/queries.ts). */
export const configKey = ['auth', 'config'] as const;

async function fetchConfig(): Promise<ConsoleConfig> {
  const config = await rpc('auth', 'config');
  setProductName(config.productName);
  return config;
}

const configQuery = { queryKey: configKey, queryFn: fetchConfig, staleTime: Number.POSITIVE_INFINITY } as const;

/** Asks auth.config once (at start, and again after the server was unreachable); failures keep the defaults. */
export function loadConfig(client = queryClient): Promise<ConsoleConfig> {
  return client.fetchQuery(configQuery).catch(() => defaultConfig);
}

/**
 * auth.config: product name (page titles, messages) and whether Register is offered; the defaults
 * until it answers, or if it cannot (the session check then reports an unreachable server).
 */
export function useConsoleConfig(): ConsoleConfig {
  return useQuery(configQuery).data ?? defaultConfig;
}

/** The product name for titles and messages (SPEC: `{product}`). */
export const useProductName = (): string => useConsoleConfig().productName;

/**
 * Asks the server for the current session (on the first load only when this browser may hold one,
 * see {@link hasSessionHint}). A 401 after having had one (or one the server calls
 * timed out) ends it with the timeout notice; a first visit without a cookie is plainly anonymous.
 */
export const loadSessionAtom = atom(null, async (get, set) => {
  const before = get(sessionStateAtom);
  if (before.status === 'loading' && !hasSessionHint()) {
    set(sessionStateAtom, { status: 'anonymous' });
    return;
  }
  try {
    const session = await rpc('auth', 'session');
    set(sessionStateAtom, { status: 'active', session });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // Signed out meanwhile (a logout in this tab whose hang-up started this check): keep that state.
      if (get(sessionStateAtom).status === 'anonymous') return;
      const timedOut = before.status === 'active' || /timed out/i.test(error.message);
      set(
        sessionStateAtom,
        timedOut ? { status: 'anonymous', notice: sessionTimedOutMessage } : { status: 'anonymous' },
      );
    } else if (error instanceof ApiError && error.code === 'UNREACHABLE' && before.status === 'loading') {
      set(sessionStateAtom, { status: 'unreachable', message: error.message });
    } else if (before.status === 'loading') {
      set(sessionStateAtom, { status: 'anonymous' });
    }
  }
});

/** A successful login (or a profile update) puts the session in place. */
export const sessionStartedAtom = atom(null, (_get, set, session: SessionInfo) => {
  set(sessionStateAtom, { status: 'active', session });
});

/** The signed-in user's own record changed (complete profile). */
export const currentUserUpdatedAtom = atom(null, (get, set, user: SessionInfo['user']) => {
  const state = get(sessionStateAtom);
  if (state.status === 'active') set(sessionStateAtom, { status: 'active', session: { ...state.session, user } });
});

export const logOutAtom = atom(null, async (_get, set) => {
  try {
    await rpc('auth', 'logout');
  } finally {
    set(sessionStateAtom, { status: 'anonymous', loggedOut: true });
  }
});

/** Clears the login page's notice once it has been read or the user moves on. */
export const dismissSessionNoticeAtom = atom(null, (get, set) => {
  if (get(sessionStateAtom).status === 'anonymous') set(sessionStateAtom, { status: 'anonymous' });
});

/** How often a 403 may make the console re-read its session (docs/DECISIONS.md, 403 is not a sign-out). */
export const forbiddenRecheckMs = 30_000;

/**
 * SPEC §6/§8: 401 and 403 clear credentials. A 401 from any call while signed in means the session
 * ended: back to login with the timeout message. A 403 means this user may not do that one thing
 * (a pharmacy user on a support-only or Admin-only method): the session stays, the page that asked
 * shows Access Restricted in place of what it could not load (ui/LoadError), and the session is read
 * again, at most once every {@link forbiddenRecheckMs}, in case a role or scope was taken away
 * (which then shows Access Restricted for the whole console).
 */
export function watchAuthFailures(target: ReturnType<typeof createStore>, now: () => number = Date.now): () => void {
  let lastRecheck = Number.NEGATIVE_INFINITY;
  return onAuthFailure((error, call) => {
    if (call.area === 'auth' && (call.method === 'session' || call.method === 'logout')) return;
    const state = target.get(sessionStateAtom);
    if (state.status !== 'active') return;
    if (error.status === 401) {
      target.set(sessionStateAtom, { status: 'anonymous', notice: sessionTimedOutMessage });
    } else if (now() - lastRecheck >= forbiddenRecheckMs) {
      lastRecheck = now();
      void target.set(loadSessionAtom);
    }
  });
}

/**
 * The live socket speaks for the session too: `switchBusiness` (the user's roles changed) and a hang-up
 * because the session ended or lost the support scope make the console read its session again, which
 * shows the login page with the timeout message or Access Restricted as the answer says.
 */
export function watchLiveAccess(target: ReturnType<typeof createStore>): () => void {
  const reload = () => {
    if (target.get(sessionStateAtom).status === 'active') void target.set(loadSessionAtom);
  };
  const stopPushes = onLivePush((push) => {
    if (push.action === 'switchBusiness') reload();
  });
  const stopRefusals = onLiveSessionEnded(reload);
  return () => {
    stopPushes();
    stopRefusals();
  };
}
