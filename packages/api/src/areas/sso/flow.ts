import { AppError } from '@medlocker/core';
import * as client from 'openid-client';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { accountDisabled, replaceSession, tokenOf } from '../../sessions/sessions.ts';
import { cookieToken, hashToken, newToken } from '../../sessions/tokens.ts';
import { findUserByEmail, toUser } from '../users/index.ts';
import type { ProviderRecord } from './config.ts';
import { completeOidc, ProviderProblem, startOidc } from './oidc.ts';
import {
  deleteSsoContinuationsBefore,
  deleteSsoLoginsBefore,
  findProvider,
  findSsoContinuation,
  findSsoLoginByState,
  forgetSsoSecrets,
  insertSsoContinuation,
  insertSsoLogin,
  takeSsoContinuation,
  takeSsoLogin,
  userHasRoleOutside,
} from './repository.ts';
import { completeSaml, rememberAssertion, startSaml } from './saml.ts';
import { loggable } from './untrusted-text.ts';

/*
 * The sign-in round trip through an identity provider.
 *
 * `begin` (from auth.getIdentityProviderAuthUrl) keeps a row in `sso_logins` with the hashes of the
 * `state` and of a random browser cookie (`medlocker_sso`, Lax so the provider's redirect back carries
 * it), and the nonce and PKCE verifier. `callback` (GET /api/auth/callback) takes that row once (a
 * second callback with the same state, and so a replayed code, finds it used), refuses it in another
 * browser, lets openid-client check the code and the ID token, and matches the verified email to an
 * existing user who has this provider. Every refusal lands on /auth/login?sso=<reason>, where the
 * console says what happened in words; never a 500, never a new account.
 */

export const SSO_COOKIE = 'medlocker_sso';
/** How long a started sign-in may take at the provider. */
export const SSO_LOGIN_TTL_MS = 10 * 60_000;

export type SsoFailure =
  | 'expired'
  | 'browser'
  | 'provider'
  | 'rejected'
  | 'unverified'
  | 'unknown'
  | 'cancelled'
  | 'disabled';

export const callbackPath = '/api/auth/callback';

/**
 * Only a place on this site may be returned to after single sign-on, never another site: a path, or a
 * full URL of our own origin (the console sends one), as its path; anything else is '/'. Control
 * characters and backslashes are refused outright: a browser drops tabs and newlines from a Location
 * (`/\t/evil.example` is `//evil.example`) and reads `\` as `/`.
 */
export function safeReturnPath(returnUrl: string, origin: string): string {
  const unsafe = [...returnUrl].some((ch) => ch <= '\u001f' || ch === '\u007f' || ch === '\\');
  if (unsafe || !URL.canParse(returnUrl, origin)) return '/';
  const url = new URL(returnUrl, origin);
  if (url.origin !== origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

export async function beginSso(
  deps: AppDeps,
  idp: ProviderRecord,
  options: { origin: string; loginHint: string; returnUrl: string },
): Promise<{ authUrl: string; browserToken: string }> {
  let started: { url: string; stateHash: string; nonce: string | null; codeVerifier: string | null };
  try {
    if (idp.type === 'SAML') {
      const saml = await startSaml(deps, idp, options.origin);
      started = { url: saml.url, stateHash: saml.requestKey, nonce: null, codeVerifier: null };
    } else {
      const oidc = await startOidc(deps, idp, `${options.origin}${callbackPath}`, options.loginHint);
      started = { url: oidc.url, stateHash: hashToken(oidc.state), nonce: oidc.nonce, codeVerifier: oidc.codeVerifier };
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    deps.logger.error('identity provider unavailable', { identityProviderId: idp.id, error: why });
    throw new AppError('UNAVAILABLE', ssoMessages.provider);
  }
  const browserToken = newToken();
  const now = deps.now();
  await insertSsoLogin(deps.db, {
    identityProviderId: idp.id,
    stateHash: started.stateHash,
    browserHash: hashToken(browserToken),
    nonce: started.nonce,
    codeVerifier: started.codeVerifier,
    returnPath: safeReturnPath(options.returnUrl, options.origin),
    now,
    expires: now + SSO_LOGIN_TTL_MS,
  });
  // Old unfinished sign-ins are of no use to anyone.
  await deleteSsoLoginsBefore(deps.db, now - SSO_LOGIN_TTL_MS);
  return { authUrl: started.url, browserToken };
}

export const ssoMessages = {
  provider: 'Your identity provider could not be reached. Please try again later or contact Support.',
};

/**
 * Where a step of a sign-in sends the browser. `session` null: no session yet (the SAML ACS passing on
 * to its continuation). `keepBrowserCookie`: leave the `medlocker_sso` cookie as it is (the ACS, and a
 * continuation refused in another browser, must not end that browser's own sign-in).
 */
export type CallbackOutcome =
  | {
      ok: true;
      location: string;
      session: { token: string; maxAgeSeconds: number } | null;
      keepBrowserCookie?: boolean;
    }
  | { ok: false; reason: SsoFailure; keepBrowserCookie?: boolean };

/** Finishes a sign-in from the provider's redirect; every outcome is a place to send the browser. */
export async function ssoCallback(
  deps: AppDeps,
  actor: Actor,
  request: Request,
  publicOrigin: string,
  sessionMaxAgeSeconds: number,
): Promise<CallbackOutcome> {
  const { db } = deps;
  const now = deps.now();
  const url = new URL(request.url);
  const state = url.searchParams.get('state');
  const fail = failWith(deps, actor);
  if (!state || state.length > 512) return fail('expired', { state: 'missing' });
  // Taken once, in one statement: a second callback with this state (a replayed code) finds it used.
  const login = await takeSsoLogin(db, hashToken(state), now);
  if (!login) return fail('expired', { state: 'unknown, used or expired' });
  const browser = cookieToken(request, SSO_COOKIE);
  if (!browser || hashToken(browser) !== login.browserHash) return fail('browser', {}, login.identityProviderId);
  const idp = await findProvider(db, login.identityProviderId);
  if (!idp) return fail('expired', { provider: 'deleted' });
  if (url.searchParams.get('error')) {
    const error = url.searchParams.get('error') ?? '';
    const description = url.searchParams.get('error_description');
    return fail(
      error === 'access_denied' ? 'cancelled' : 'rejected',
      description === null ? { error } : { error, description },
      idp.id,
    );
  }
  // The callback URL as the provider was told it: our public origin, whatever host the proxy used.
  const callbackUrl = new URL(`${publicOrigin}${callbackPath}${url.search}`);
  let identity: Awaited<ReturnType<typeof completeOidc>>;
  try {
    identity = await completeOidc(deps, idp, callbackUrl, {
      state,
      nonce: login.nonce ?? '',
      codeVerifier: login.codeVerifier ?? '',
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (error instanceof ProviderProblem || isUnreachable(error)) {
      deps.logger.error('identity provider unavailable', { identityProviderId: idp.id, error: loggable(why) });
      return fail('provider', { error: why }, idp.id);
    }
    deps.logger.warn('identity provider response refused', { identityProviderId: idp.id, error: loggable(why) });
    return fail('rejected', { error: why }, idp.id);
  } finally {
    await forgetSsoSecrets(db, login.id);
  }
  return signInMatched(deps, actor, request, idp, identity, login.returnPath, fail, sessionMaxAgeSeconds);
}

type Fail = (reason: SsoFailure, details?: Record<string, unknown>, idpId?: string | null) => Promise<CallbackOutcome>;

/**
 * The end of every provider sign-in: the verified email must be an existing user with this provider,
 * then a new session (the one of any cookie the browser still held ends). A provider tied to a business
 * or group vouches only for users whose every role lies within it: whoever runs that organisation's
 * provider must not sign in as a support user, or as a user of another business, even one given the
 * provider by mistake (or by "single sign-on by default").
 */
async function signInMatched(
  deps: AppDeps,
  actor: Actor,
  request: Request,
  idp: ProviderRecord,
  identity: { subject: string; email: string; emailVerified: boolean; authMethods: string[] },
  returnPath: string,
  fail: Fail,
  sessionMaxAgeSeconds: number,
): Promise<CallbackOutcome> {
  const { db } = deps;
  const now = deps.now();
  const idpId = idp.id;
  if (!identity.email) return fail('unverified', { subject: identity.subject, email: 'missing' }, idpId);
  if (!identity.emailVerified) return fail('unverified', { subject: identity.subject }, idpId);
  const user = await findUserByEmail(db, identity.email);
  if (!user) return fail('unknown', { email: identity.email }, idpId);
  if (user.identityProviderId !== idpId)
    return fail('unknown', { email: identity.email, userId: user.id, assigned: false }, idpId);
  const scope = { businessId: idp.businessId, groupId: idp.groupId };
  if ((scope.businessId !== null || scope.groupId !== null) && (await userHasRoleOutside(db, user.id, scope)))
    return fail('unknown', { email: identity.email, userId: user.id, outsideProviderScope: true }, idpId);
  // An account disabled for not being used signs in no way at all (docs/decisions/auth.md).
  if (await accountDisabled(db, user.id)) return fail('disabled', { email: identity.email, userId: user.id }, idpId);

  // The provider decides how its users prove who they are: what it asserted is kept on the session and
  // in the audit log (docs/SECURITY.md "Second factor"); it is not asked for a factor of ours.
  const authMethods = identity.authMethods.length > 0 ? identity.authMethods : ['sso'];
  const { token, session } = await replaceSession(deps, actor, user.id, tokenOf(request), now, { authMethods });
  await audit(db, deps, actor, {
    action: 'auth.login.sso',
    entityType: 'user',
    entityId: user.id,
    who: { userId: user.id, display: toUser(user).name },
    details: {
      sessionId: session.id,
      identityProviderId: idpId,
      subject: identity.subject,
      providerAuthMethods: identity.authMethods,
    },
  });
  return { ok: true, location: returnPath, session: { token, maxAgeSeconds: sessionMaxAgeSeconds } };
}

function failWith(deps: AppDeps, actor: Actor): Fail {
  return async (reason, details = {}, idpId = null) => {
    // The provider's (or a forger's) words: bounded and without control characters (untrusted-text.ts).
    const bounded = Object.fromEntries(
      Object.entries(details).map(([k, v]) => [k, typeof v === 'string' ? loggable(v) : v]),
    );
    await audit(deps.db, deps, actor, {
      action: 'auth.sso.refused',
      entityType: 'identity_provider',
      entityId: idpId,
      who: { userId: null, display: null },
      details: { reason, ...bounded },
    });
    return { ok: false as const, reason };
  };
}

/** How long a checked SAML response waits for its browser at the continuation. */
export const SAML_CONTINUATION_TTL_MS = 2 * 60_000;
export const samlContinuePath = '/sso/saml/continue';

/**
 * The SAML assertion consumer service: checks the provider's POST and keeps what it says as a
 * one-time continuation, then sends the browser (303) to `samlContinuePath`, where the session is made.
 * The POST is cross-site, so it carries no Lax cookie and cannot tell which browser sent it: signing in
 * here would let someone post their own signed response from another person's browser (login CSRF).
 * The response must answer a request we made (InResponseTo, once) and its assertion must be new. The
 * browser's `medlocker_sso` cookie is never touched here.
 */
export async function samlCallback(
  deps: AppDeps,
  actor: Actor,
  _request: Request,
  idpId: string,
  /** The posted form; null when it was larger than we read. */
  body: Record<string, string> | null,
  publicOrigin: string,
): Promise<CallbackOutcome> {
  const keep = { keepBrowserCookie: true } as const;
  const fail: Fail = async (...args) => ({ ...(await failWith(deps, actor)(...args)), ...keep });
  const idp = await findProvider(deps.db, idpId);
  if (idp?.type !== 'SAML') return fail('expired', { provider: 'unknown' });
  if (body === null) return fail('rejected', { error: 'The SAML response is larger than 512 KB' }, idp.id);
  let result: Awaited<ReturnType<typeof completeSaml>>;
  try {
    result = await completeSaml(deps, idp, publicOrigin, body);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (error instanceof ProviderProblem) {
      deps.logger.error('identity provider unavailable', { identityProviderId: idp.id, error: why });
      return fail('provider', { error: why }, idp.id);
    }
    deps.logger.warn('identity provider response refused', { identityProviderId: idp.id, error: why });
    return fail(/InResponseTo/.test(why) ? 'expired' : 'rejected', { error: why }, idp.id);
  }
  if (!result.requestKey) return fail('expired', { error: 'request already answered' }, idp.id);
  const login = await findSsoLoginByState(deps.db, result.requestKey);
  if (!login) return fail('expired', { error: 'sign-in gone' }, idp.id);
  const { identity } = result;
  if (!(await rememberAssertion(deps, idp.id, identity.assertionId, identity.expires)))
    return fail('expired', { error: 'assertion replayed', assertionId: identity.assertionId }, idp.id);
  const ticket = newToken();
  const now = deps.now();
  await deleteSsoContinuationsBefore(deps.db, now - SAML_CONTINUATION_TTL_MS);
  await insertSsoContinuation(deps.db, {
    ticketHash: hashToken(ticket),
    identityProviderId: idp.id,
    ssoLoginId: login.id,
    browserHash: login.browserHash,
    subject: identity.subject,
    email: identity.email,
    returnPath: login.returnPath,
    authMethods: identity.authMethods,
    now,
    expires: now + SAML_CONTINUATION_TTL_MS,
  });
  return { ok: true, location: `${samlContinuePath}?ticket=${encodeURIComponent(ticket)}`, session: null, ...keep };
}

/**
 * `GET /sso/saml/continue?ticket=…`, where the ACS sends the browser: a same-site top-level GET, so it
 * carries the Lax `medlocker_sso` cookie. The continuation is taken once, within its two minutes, and
 * only with the cookie of the browser that started this sign-in; then the user is matched and signed
 * in. Another browser (no cookie, or the cookie of its own sign-in) is refused and changes nothing:
 * the continuation stays, and so does that browser's cookie.
 */
export async function samlContinue(
  deps: AppDeps,
  actor: Actor,
  request: Request,
  sessionMaxAgeSeconds: number,
): Promise<CallbackOutcome> {
  const fail = failWith(deps, actor);
  const now = deps.now();
  const ticket = new URL(request.url).searchParams.get('ticket');
  if (!ticket || ticket.length > 512) return fail('expired', { ticket: 'missing' });
  const ticketHash = hashToken(ticket);
  const browser = cookieToken(request, SSO_COOKIE);
  const taken = browser ? await takeSsoContinuation(deps.db, ticketHash, hashToken(browser), now) : undefined;
  if (!taken) {
    const found = await findSsoContinuation(deps.db, ticketHash);
    if (!found) return fail('expired', { ticket: 'unknown' });
    if (found.used !== null) return fail('expired', { ticket: 'used' }, found.identityProviderId);
    if (found.expires <= now) return fail('expired', { ticket: 'expired' }, found.identityProviderId);
    const refused = await fail('browser', { ticket: 'another browser' }, found.identityProviderId);
    return { ...refused, keepBrowserCookie: true };
  }
  const idp = await findProvider(deps.db, taken.identityProviderId);
  if (!idp) return fail('expired', { provider: 'deleted' });
  // A signed assertion from the organisation's own provider vouches for the address it names.
  return signInMatched(
    deps,
    actor,
    request,
    idp,
    { subject: taken.subject, email: taken.email, emailVerified: true, authMethods: taken.authMethods },
    taken.returnPath,
    fail,
    sessionMaxAgeSeconds,
  );
}

/** A network failure talking to the provider (the token endpoint down), as opposed to a refused response. */
function isUnreachable(error: unknown): boolean {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) return false;
  const message = error instanceof Error ? error.message : '';
  const cause = (error as { cause?: { code?: string } })?.cause;
  return (
    error instanceof TypeError ||
    /fetch failed|ECONNREFUSED|Unable to connect|timed out|aborted/i.test(message) ||
    /^(E[A-Z]+|ConnectionRefused|ConnectionClosed|FailedToOpenSocket)$/.test(cause?.code ?? '')
  );
}
