import type { SessionInfo } from '@medlocker/core';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, onAuthFailure, rpc, setProductName } from '../api/client.ts';
import { queryClient } from '../api/queries.ts';
import { hasSessionHint, rememberSessionHint, sessionTimedOutMessage } from './session-hint.ts';

export { hasSessionHint, rememberSessionHint, sessionTimedOutMessage } from './session-hint.ts';

/*
 * The session is server state: the answer of auth.session, kept in the TanStack Query cache under
 * {@link sessionKey} with what the console learnt from how it ended (the timeout notice, a chosen
 * logout). React reads it through the hooks below; code outside React (the RPC client's 401/403
 * listener, the live socket, main.tsx) through the plain functions, each taking the client (the
 * console's by default, a fresh one in tests).
 */

export type ConsoleConfig = { allowRegistration: boolean; productName: string };

export type SessionState =
  /** The first session check has not answered yet. */
  | { status: 'loading' }
  /**
   * Not signed in. `notice` is shown on the login page (e.g. the session timed out); `loggedOut` when
   * the user chose to log out, so no page is remembered to come back to.
   */
  | { status: 'anonymous'; notice?: string; loggedOut?: true }
  | { status: 'active'; session: SessionInfo }
  /** The server did not answer the first session check. */
  | { status: 'unreachable'; message: string };

/** What the cache holds once the first check has answered. */
type KnownSession = Exclude<SessionState, { status: 'loading' }>;

const loading: SessionState = { status: 'loading' };

/** Where the session is cached. */
export const sessionKey = ['auth', 'session'] as const;

/** Keeps the hint in step with a session state (active: set; anonymous: cleared) and returns it. */
function hinted<S extends KnownSession>(state: S): S {
  if (state.status === 'active') rememberSessionHint(true);
  else if (state.status === 'anonymous') rememberSessionHint(false);
  return state;
}

const known = (client: QueryClient) => client.getQueryData<KnownSession>(sessionKey);

function setSession(client: QueryClient, state: KnownSession): void {
  client.setQueryData(sessionKey, hinted(state));
}

/**
 * Asks the server for the current session (on the first load only when this browser may hold one,
 * see {@link hasSessionHint}). A 401 after having had one (or one the server calls timed out) ends it
 * with the timeout notice; a first visit without a cookie is plainly anonymous.
 */
async function checkSession(client: QueryClient): Promise<KnownSession> {
  const before = known(client);
  if (before === undefined && !hasSessionHint()) return hinted({ status: 'anonymous' });
  try {
    return hinted({ status: 'active', session: await rpc('auth', 'session') });
  } catch (error) {
    const now = known(client);
    if (error instanceof ApiError && error.status === 401) {
      // Signed out meanwhile (a logout in this tab whose hang-up started this check): keep that state.
      if (now?.status === 'anonymous') return now;
      const timedOut = before?.status === 'active' || /timed out/i.test(error.message);
      return hinted(timedOut ? { status: 'anonymous', notice: sessionTimedOutMessage() } : { status: 'anonymous' });
    }
    if (before === undefined) {
      // Only a 401 proves there is no session: any other failure (the page left while the answer was
      // read, an unreadable answer) keeps the hint, so the next page still asks.
      return error instanceof ApiError && error.code === 'UNREACHABLE'
        ? { status: 'unreachable', message: error.message }
        : { status: 'anonymous' };
    }
    // A later check that could not be made (a network blip) leaves the session as it was.
    return now ?? before;
  }
}

/**
 * The session query: never stale and never collected (the guards read it all the time); it is asked
 * again only by {@link loadSession}, a live push that distrusts every cached answer, or Try again.
 */
const sessionQuery = (client: QueryClient) => ({
  queryKey: sessionKey,
  queryFn: () => checkSession(client),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

/** Reads the session from the server again (concurrent calls share one request). */
export async function loadSession(client: QueryClient = queryClient): Promise<void> {
  await client.fetchQuery({ ...sessionQuery(client), staleTime: 0 });
}

/** The session state now, for code outside React. */
export const getSessionState = (client: QueryClient = queryClient): SessionState => known(client) ?? loading;

/**
 * Forgets every cached server answer but the session and the console's config: what one user saw is
 * never shown to the next one on this browser.
 */
function forgetServerData(client: QueryClient): void {
  const kept = ([area, method]: readonly unknown[]) => area === 'auth' && (method === 'session' || method === 'config');
  client.removeQueries({ predicate: (q) => !kept(q.queryKey) });
}

/** A successful login puts the session in place, with nothing cached from an earlier one. */
export function sessionStarted(session: SessionInfo, client: QueryClient = queryClient): void {
  forgetServerData(client);
  setSession(client, { status: 'active', session });
}

/** The signed-in user's own record changed (complete profile). */
export function currentUserUpdated(user: SessionInfo['user'], client: QueryClient = queryClient): void {
  const state = known(client);
  if (state?.status === 'active') setSession(client, { status: 'active', session: { ...state.session, user } });
}

/** Logs out, whatever the server answers, and forgets the user's cached data. */
export async function logOut(client: QueryClient = queryClient): Promise<void> {
  try {
    await rpc('auth', 'logout');
  } finally {
    setSession(client, { status: 'anonymous', loggedOut: true });
    forgetServerData(client);
  }
}

/** Where the session stands; the route guards read it. */
export function useSessionState(): SessionState {
  const client = useQueryClient();
  return useQuery(sessionQuery(client)).data ?? loading;
}

/** The active session, or null. */
export function useSession(): SessionInfo | null {
  const state = useSessionState();
  return state.status === 'active' ? state.session : null;
}

/** The signed-in user, or null. */
export const useCurrentUser = (): SessionInfo['user'] | null => useSession()?.user ?? null;

/** Whether the signed-in user may use the support console (SPEC §1: only the support scope). */
export const useHasSupportScope = (): boolean => useSession()?.scopes.includes('support') ?? false;

/**
 * Who the server takes the user for (core's ActorKind): `support` with the support scope, any other
 * signed-in user `pharmacy`, else `anonymous`. Actions are shown by the contract's access for it
 * (state/access.ts).
 */
export function useActorKind(): 'support' | 'pharmacy' | 'anonymous' {
  const session = useSession();
  if (!session) return 'anonymous';
  return session.scopes.includes('support') ? 'support' : 'pharmacy';
}

/** The message for the login page, if the last session ended by itself. */
export function useSessionNotice(): string | undefined {
  const state = useSessionState();
  return state.status === 'anonymous' ? state.notice : undefined;
}

const defaultConfig: ConsoleConfig = { allowRegistration: false, productName: 'MedLocker' };

/** Where auth.config is cached. */
export const configKey = ['auth', 'config'] as const;

async function fetchConfig(): Promise<ConsoleConfig> {
  const config = await rpc('auth', 'config');
  setProductName(config.productName);
  return config;
}

const configQuery = { queryKey: configKey, queryFn: fetchConfig, staleTime: Number.POSITIVE_INFINITY } as const;

/** Asks auth.config once (at start, and again after the server was unreachable); failures keep the defaults. */
export function loadConfig(client: QueryClient = queryClient): Promise<ConsoleConfig> {
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

/** How often a 403 may make the console re-read its session (docs/decisions/auth.md, 403 is not a sign-out). */
export const forbiddenRecheckMs = 30_000;

/**
 * SPEC §6/§8: 401 and 403 clear credentials. A 401 from any call while signed in means the session
 * ended: back to login with the timeout message. A 403 means this user may not do that one thing
 * (a pharmacy user on a support-only or Admin-only method): the session stays, the page that asked
 * shows Access Restricted in place of what it could not load (ui/LoadError), and the session is read
 * again, at most once every {@link forbiddenRecheckMs}, in case a role or scope was taken away
 * (which then shows Access Restricted for the whole console).
 */
export function watchAuthFailures(client: QueryClient = queryClient, now: () => number = Date.now): () => void {
  let lastRecheck = Number.NEGATIVE_INFINITY;
  return onAuthFailure((error, call) => {
    if (call.area === 'auth' && (call.method === 'session' || call.method === 'logout')) return;
    if (known(client)?.status !== 'active') return;
    if (error.status === 401) {
      setSession(client, { status: 'anonymous', notice: sessionTimedOutMessage() });
    } else if (now() - lastRecheck >= forbiddenRecheckMs) {
      lastRecheck = now();
      void loadSession(client);
    }
  });
}
