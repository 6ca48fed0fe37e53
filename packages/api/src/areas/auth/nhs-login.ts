import { AppError, type NhsLoginFailure, nhsLoginMessages, nhsLoginRequiredLevel } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { NewPatientSession } from '../../sessions/patient-sessions.ts';
import { cookieToken, hashToken, newToken } from '../../sessions/tokens.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { completeNhsLoginAt, type NhsLoginIdentity, NhsLoginUnreachable, startNhsLoginAt } from './nhs-login-oidc.ts';
import {
  deleteNhsLoginsBefore,
  forgetNhsLoginSecrets,
  insertNhsLogin,
  nhsLoginOrder,
  takeNhsLogin,
} from './nhs-login-repository.ts';
import { takeAddress } from './patient-address-limits.ts';
import { findOrderPatient, type OrderPatient } from './patient-repository.ts';
import { orderPatient, refuseWhileLocked, startSession, takeTry } from './patient-service.ts';

/*
 * NHS login as a third way for a patient to prove who they are (docs/decisions/patients.md, "NHS login").
 *
 * `startNhsLogin` keeps a row in `nhs_logins` with the hashes of the `state` and of a random browser
 * cookie (`medlocker_nhs_login`, Lax so NHS login's redirect back carries it), and the nonce and PKCE
 * verifier, so any api process can finish it. The callback takes that row once (a replayed callback
 * finds it used), refuses it in another browser, lets openid-client check the code (private_key_jwt)
 * and the ID token (RS512), refuses a vector of trust below P9 (no verified NHS number), then compares
 * the verified NHS number and date of birth with the order's patient. A mismatch counts as a wrong try
 * at the order's link, as a wrong date of birth does. Every outcome sends the browser back to the
 * order's page: signed in, or with `?nhsLogin=<reason>` for the page to say why.
 */

export const NHS_LOGIN_COOKIE = 'medlocker_nhs_login';
/** How long a started NHS login may take at the provider. */
export const NHS_LOGIN_TTL_MS = 10 * 60_000;
export const nhsLoginCallbackPath = '/api/auth/nhs-login/callback';

/**
 * Whether the business offers NHS login: the server has it configured, the business switched it on,
 * and its display id is the NHS number (its display id field validates NHS numbers).
 */
async function offered(deps: AppDeps, businessId: string): Promise<boolean> {
  if (!deps.config.nhsLogin) return false;
  const { settings } = await effectiveFeatureSettings(deps.db, businessId);
  return settings.nhsLogin.enabled && settings.displayIdField.validateNhsNumber;
}

/** The identity check's extra ways for the order: NHS login or not (false for an unknown order). */
export async function patientSignInOptions(deps: AppDeps, _actor: Actor, input: { orderId: string }) {
  const found = await findOrderPatient(deps.db, input.orderId);
  if (!found || found.deletedAt !== null) return { nhsLogin: false };
  return { nhsLogin: await offered(deps, found.businessId) };
}

/** The address of NHS login for this order, and the browser's one-time cookie. */
export async function startNhsLogin(
  deps: AppDeps,
  actor: Actor,
  input: { orderId: string },
  origin: string,
): Promise<{ answer: { authUrl: string }; browserToken: string }> {
  const giveBack = await takeAddress(deps, actor, 'tries', input.orderId);
  const found = await orderPatient(deps, input.orderId);
  await giveBack();
  const settings = deps.config.nhsLogin;
  if (!settings || !(await offered(deps, found.businessId))) {
    const message = nhsLoginMessages.unavailable;
    throw new AppError('CONFLICT', message, [{ path: 'orderId', id: 'NHS_LOGIN_OFF', message }]);
  }
  const now = deps.now();
  await refuseWhileLocked(deps, found.orderId, now);
  let started: Awaited<ReturnType<typeof startNhsLoginAt>>;
  try {
    started = await startNhsLoginAt(settings, `${origin}${nhsLoginCallbackPath}`);
  } catch (error) {
    deps.logger.error('NHS login unavailable', { error: error instanceof Error ? error.message : String(error) });
    throw new AppError('UNAVAILABLE', nhsLoginMessages.provider);
  }
  const browserToken = newToken();
  await insertNhsLogin(
    deps.db,
    {
      orderId: found.orderId,
      stateHash: hashToken(started.state),
      browserHash: hashToken(browserToken),
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
    },
    now,
    now + NHS_LOGIN_TTL_MS,
  );
  await deleteNhsLoginsBefore(deps.db, now - NHS_LOGIN_TTL_MS);
  return { answer: { authUrl: started.url }, browserToken };
}

/** Where the callback sends the browser, with the new patient session when it signed the patient in. */
export type NhsLoginOutcome = { location: string; session: NewPatientSession | null };

const orderPage = (orderId: string | undefined, reason: NhsLoginFailure | null = null) =>
  `${orderId ? `/p/${encodeURIComponent(orderId)}` : '/p'}${reason ? `?nhsLogin=${reason}` : ''}`;

type Refuse = (
  orderId: string | undefined,
  reason: NhsLoginFailure,
  details?: Record<string, unknown>,
) => Promise<NhsLoginOutcome>;

function refuser(deps: AppDeps, actor: Actor): Refuse {
  return async (orderId, reason, details = {}) => {
    await audit(deps.db, deps, actor, {
      action: 'patient.nhsLogin.refused',
      entityType: 'order',
      entityId: orderId ?? null,
      details: { reason, ...details },
    });
    return { location: orderPage(orderId, reason), session: null };
  };
}

/** `GET /api/auth/nhs-login/callback`: finishes a login; every outcome is a place on the order's page. */
export async function nhsLoginCallback(
  deps: AppDeps,
  actor: Actor,
  request: Request,
  publicOrigin: string,
): Promise<NhsLoginOutcome> {
  const { db } = deps;
  const refuse = refuser(deps, actor);
  const url = new URL(request.url);
  const state = url.searchParams.get('state');
  if (!state || state.length > 512) return refuse(undefined, 'expired', { state: 'missing' });
  // Taken once, in one statement: the same callback again (a replayed code) finds it used.
  const login = await takeNhsLogin(db, hashToken(state), deps.now());
  if (!login)
    return refuse(await nhsLoginOrder(db, hashToken(state)), 'expired', { state: 'unknown, used or expired' });
  const { orderId } = login;
  const browser = cookieToken(request, NHS_LOGIN_COOKIE);
  if (!browser || hashToken(browser) !== login.browserHash) return refuse(orderId, 'expired', { browser: 'another' });
  const found = await findOrderPatient(db, orderId);
  const settings = deps.config.nhsLogin;
  if (!found || found.deletedAt !== null) return refuse(orderId, 'unavailable', { order: 'gone' });
  if (!settings || !(await offered(deps, found.businessId))) return refuse(orderId, 'unavailable', { offered: false });
  const error = url.searchParams.get('error');
  if (error) return refuse(orderId, error === 'access_denied' ? 'cancelled' : 'failed', { error: error.slice(0, 100) });
  let identity: NhsLoginIdentity;
  try {
    identity = await completeNhsLoginAt(settings, new URL(`${publicOrigin}${nhsLoginCallbackPath}${url.search}`), {
      state,
      nonce: login.nonce ?? '',
      codeVerifier: login.codeVerifier ?? '',
    });
  } catch (problem) {
    const why = (problem instanceof Error ? problem.message : String(problem)).slice(0, 200);
    if (problem instanceof NhsLoginUnreachable) {
      deps.logger.error('NHS login unavailable', { error: why });
      return refuse(orderId, 'provider', { error: why });
    }
    deps.logger.warn('NHS login response refused', { error: why });
    return refuse(orderId, 'failed', { error: why });
  } finally {
    await forgetNhsLoginSecrets(db, login.id);
  }
  // Below P9 NHS login has not verified who the user is: no verified NHS number to compare.
  if (identity.vot.split('.')[0] !== nhsLoginRequiredLevel)
    return refuse(orderId, 'level', { vot: identity.vot.slice(0, 40), subject: identity.subject });
  return compare(deps, actor, found, identity, refuse);
}

const digits = (value: string | null) => (value ?? '').replace(/[\s-]/g, '');

/**
 * The verified NHS number must be the patient's (their display id), and the birth date theirs when the
 * pharmacy has one on record. Counted like any other try at the order's link; refused unchecked while
 * it is locked.
 */
async function compare(
  deps: AppDeps,
  actor: Actor,
  found: OrderPatient,
  identity: NhsLoginIdentity,
  refuse: Refuse,
): Promise<NhsLoginOutcome> {
  const now = deps.now();
  let giveBack: () => Promise<void>;
  let failures: number;
  try {
    giveBack = await takeAddress(deps, actor, 'tries', found.orderId);
    failures = await takeTry(deps, actor, found.orderId, found.businessId, now, giveBack);
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') return refuse(found.orderId, 'locked');
    throw error;
  }
  const nhsNumber = digits(identity.nhsNumber);
  const sameNumber = nhsNumber !== '' && nhsNumber === digits(found.displayId);
  const sameBirth = found.dateOfBirth === null || found.dateOfBirth === identity.birthdate;
  if (!sameNumber || !sameBirth) {
    await audit(deps.db, deps, actor, {
      action: 'patient.verify.failed',
      entityType: 'order',
      entityId: found.orderId,
      businessId: found.businessId,
      details: { method: 'nhsLogin', failures, nhsNumber: sameNumber, dateOfBirth: sameBirth },
    });
    return { location: orderPage(found.orderId, 'mismatch'), session: null };
  }
  await giveBack();
  const proven = await startSession(deps, actor, found, 'nhsLogin', now);
  return { location: orderPage(found.orderId), session: proven.session };
}
